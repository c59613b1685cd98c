// How the services reach a process instance: a command for an instance whose shard this node owns runs here, on its
// copy in memory (ResidentInstances); one for an instance another node owns goes to that node as a message to the
// ProcessInstance entity, whose handler runs it in that node's ResidentInstances. Either way one node, and on it one
// command at a time, writes an instance. Same shape as the entity's client, so callers do not care which way it went.
import { Context, Effect, Layer } from "effect"
import type { ClusterError } from "effect/cluster"
import { ProcessInstance } from "./ProcessInstance.ts"
import type { InstanceCommandPayload, InstanceRejected, InstanceSnapshot } from "./ProcessInstance.ts"
import { ResidentInstances, type ResidentInstancesFull } from "./ResidentInstances.ts"

export type InstanceSendError =
  | InstanceRejected
  | ResidentInstancesFull
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError
  | ClusterError.EntityNotAssignedToRunner

export type InstanceClientShape = (instanceId: string) => {
  readonly Execute: (payload: InstanceCommandPayload) => Effect.Effect<InstanceSnapshot, InstanceSendError>
}

export class InstanceClient extends Context.Service<InstanceClient, InstanceClientShape>()("flowcore/InstanceClient") {
  static readonly layer = Layer.effect(
    InstanceClient,
    Effect.gen(function*() {
      const cluster = yield* ProcessInstance.client
      const residents = yield* ResidentInstances
      return InstanceClient.of((instanceId) => ({
        Execute: (payload) =>
          Effect.suspend((): Effect.Effect<InstanceSnapshot, InstanceSendError> =>
            residents.isLocal(instanceId)
              ? residents.execute(instanceId, payload, true)
              : cluster(instanceId).Execute(payload)
          )
      }))
    })
  )
}

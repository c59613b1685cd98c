// Process instances as the HTTP layer sees them: reads come from the projections (InstanceQueries.ts, in the
// request's tenant); every change is a command sent to the instance's entity (the only writer), whose reply is the
// answer. Commands name their principal: correlations, job workers and batches send them outside a request too.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant, inTenant } from "../../auth/CurrentTenant.ts"
import type { Principal } from "../../auth/Principal.ts"
import { InstanceClient } from "../../cluster/InstanceClient.ts"
import type { InstanceSnapshot as EntityReply } from "../../cluster/ProcessInstance.ts"
import { ResidentInstances } from "../../cluster/ResidentInstances.ts"
import type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import { deleteInstances } from "../../persistence/instances/InstanceDeletion.ts"
import { type BusinessError, businessError, type ClientError, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { ProcessInstance } from "../../schema/ProcessInstances.ts"
import { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { CurrentIdSeed, isUuid, newId } from "../Ids.ts"
import { sendCommand } from "./InstanceCommandSender.ts"
import { makeInstanceMigration, type MigrateInstances } from "./InstanceMigration.ts"
import { type InstanceQueriesShape, makeInstanceQueries } from "./InstanceQueries.ts"

export type Delivery = "applied" | "held" | "missed"

export interface ProcessInstancesShape extends InstanceQueriesShape {
  readonly start: (
    principal: Principal,
    deploymentId: string,
    variables: Readonly<Record<string, unknown>>,
    startNodeId?: string,
    /** A deterministic id makes a repeated start (a redelivered broadcast) start nothing new. */
    instanceId?: string
  ) => Effect.Effect<ProcessInstance, ClientError>
  /** Sends a command straight to the instance's entity (no checks of the caller's view): correlations, system work. */
  /** Sends a command that may find its target gone: "applied", "held" (the instance is suspended: applied on resume) or "missed". */
  readonly deliver: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId: string
  ) => Effect.Effect<Delivery>
  /** Applies a command through the instance's entity, answering the entity's reply. */
  readonly apply: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId: string
  ) => Effect.Effect<EntityReply, ClientError>
  /** Sends a command to the instance's entity; `commandId` makes retries of the same request safe. */
  readonly command: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId?: string
  ) => Effect.Effect<ProcessInstance, ClientError>
  /** Deletes a finished instance of the request's tenant (CurrentTenant). */
  readonly remove: (id: ProcessInstanceId) => Effect.Effect<ProcessInstance, NotFound | BusinessError, CurrentTenant>
  /** Checks every instance's migration first (all problems in one 400), then migrates each atomically. */
  readonly migrate: MigrateInstances
}

export class ProcessInstances
  extends Context.Service<ProcessInstances, ProcessInstancesShape>()("flowcore/ProcessInstances")
{
  static readonly layer = Layer.effect(
    ProcessInstances,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const client = yield* InstanceClient
      const residents = yield* ResidentInstances
      // A start's id drawn at random is drawn again (a few times at most) until its shard is one this node owns, so
      // the start runs here instead of travelling to another node. Ids derived from a seed (a retried idempotent
      // request) stay as derived: the retry must find the same id, wherever it lands.
      const newInstanceId = Effect.gen(function*() {
        let id = yield* newId
        if ((yield* CurrentIdSeed) !== undefined) return id
        for (let draw = 0; draw < 32 && !residents.isLocal(id); draw++) id = yield* newId
        return id
      })
      const queries = yield* makeInstanceQueries
      const send = sendCommand(client)
      const migrate = yield* makeInstanceMigration(send)
      /** The instance as the principal's tenant sees it. */
      const instanceOf = (principal: Principal, id: ProcessInstanceId) =>
        queries.get(id).pipe(inTenant(principal.tenantId))

      return {
        ...queries,
        start: Effect.fnUntraced(function*(principal, deploymentId, variables, startNodeId, instanceId) {
          if (!isUuid(deploymentId)) return yield* notFound("deployment", deploymentId)
          const id = ProcessInstanceId.make(instanceId ?? (yield* newInstanceId))
          const command = {
            type: "StartInstance" as const,
            variables,
            ...(startNodeId === undefined ? {} : { startNodeId })
          }
          const reply = yield* send(principal, id, "start", command, deploymentId, instanceId === undefined)
          // The instance as its start committed it: no need to read it back (a repeated start's reply lacks it).
          const started = reply.started
          if (started === undefined) return yield* instanceOf(principal, id)
          return { id, ...started, state: reply.state, updatedAt: started.startedAt } satisfies ProcessInstance
        }),
        deliver: (principal, id, command, commandId) =>
          send(principal, id, commandId, command).pipe(
            Effect.map((reply): Delivery => (reply.state === "SUSPENDED" ? "held" : "applied")),
            Effect.catch(() => Effect.succeed<Delivery>("missed"))
          ),
        apply: (principal, id, command, commandId) => send(principal, id, commandId, command),
        command: Effect.fnUntraced(function*(principal, id, command, commandId) {
          const instance = command.type === "CancelInstance" ? yield* instanceOf(principal, id) : undefined
          // A called instance belongs to its caller's call tree: it ends with its root (as in Camunda 8).
          if (instance !== undefined && instance.parentInstanceId !== null) {
            return yield* businessError(
              `process instance ${id} was started by a call activity of ${instance.parentInstanceId}; cancel the root instance ${instance.rootInstanceId}`,
              [{ field: "id", message: "a called instance cannot be canceled on its own", code: "CALLED_INSTANCE" }]
            )
          }
          yield* send(principal, id, commandId ?? (yield* newId), command)
          return yield* instanceOf(principal, id)
        }),
        migrate,
        remove: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const instance = yield* queries.get(id)
          if (instance.state === "ACTIVE" || instance.state === "SUSPENDED") {
            return yield* businessError(
              `process instance ${id} is ${instance.state.toLowerCase()}: only finished instances can be deleted; cancel it first`,
              [
                { field: "id", message: `instance is ${instance.state}`, code: "NOT_FINISHED" }
              ]
            )
          }
          yield* deleteInstances(sql, sql`tenant_id = ${tenantId} AND id = ${id}`).pipe(Effect.orDie)
          return instance
        })
      }
    })
  )
}

// The ProcessInstance entity: loads its instance (state + compiled graph) when it starts, then applies each command
// in arrival order — dedupe by command id, run the pure core, commit events + state + projections + command id in
// one transaction — and only then changes its in-memory copy. Memory is a cache: a restart rebuilds it from the rows.
import { Clock, Effect } from "effect"
import { Entity } from "effect/cluster"
import { InstanceStore, type NewInstance, type StoredInstance } from "../persistence/InstanceStore.ts"
import { isRejection, ProcessEngine } from "../services/ProcessEngine.ts"
import { OutboxRelay } from "./OutboxRelay.ts"
import { InstanceRejected, ProcessInstance, type InstanceSnapshot } from "./ProcessInstance.ts"

const snapshotOf = (instance: StoredInstance): InstanceSnapshot => ({
  id: instance.id,
  tenantId: instance.tenantId,
  state: instance.status,
  lastEventSeq: instance.lastEventSeq
})

export const ProcessInstanceLive = ProcessInstance.toLayer(
  Effect.gen(function*() {
    const instanceId = (yield* Entity.CurrentAddress).entityId
    const store = yield* InstanceStore
    const engine = yield* ProcessEngine
    const relay = yield* OutboxRelay
    let current = yield* store.load(instanceId)

    return ProcessInstance.of({
      Execute: ({ payload }) =>
        Effect.gen(function*() {
          const recorded = yield* store.recordedReply(instanceId, payload.commandId)
          if (recorded !== undefined) return recorded as InstanceSnapshot

          let instance: StoredInstance
          let created: NewInstance | undefined
          if (current === undefined) {
            if (payload.command.type !== "StartInstance" || payload.deploymentId === undefined) {
              return yield* new InstanceRejected({ reason: "NOT_FOUND", message: `process instance ${instanceId} not found` })
            }
            const deployment = yield* store.deploymentForStart(payload.tenantId, payload.deploymentId)
            if (deployment === undefined) {
              return yield* new InstanceRejected({ reason: "NOT_FOUND", message: `deployment ${payload.deploymentId} not found` })
            }
            if (deployment.state === "SUSPENDED") {
              return yield* new InstanceRejected({ reason: "INVALID_STATE", message: `deployment ${deployment.id} is suspended: new instances cannot start` })
            }
            created = {
              id: instanceId,
              tenantId: payload.tenantId,
              deploymentId: deployment.id,
              processKey: deployment.key,
              version: deployment.version,
              startedBy: payload.actor,
              parentInstanceId: payload.parent?.instanceId ?? null,
              parentNodeId: payload.parent?.nodeId ?? null,
              rootInstanceId: payload.parent?.rootInstanceId ?? instanceId
            }
            instance = {
              id: instanceId,
              tenantId: payload.tenantId,
              parentInstanceId: payload.parent?.instanceId ?? null,
              deploymentId: deployment.id,
              processKey: deployment.key,
              version: deployment.version,
              status: "ACTIVE",
              engineState: undefined,
              lastEventSeq: 0,
              graph: deployment.graph
            }
          } else {
            // Another tenant's instance answers exactly like a missing one.
            if (current.tenantId !== payload.tenantId) {
              return yield* new InstanceRejected({ reason: "NOT_FOUND", message: `process instance ${instanceId} not found` })
            }
            if (payload.command.type === "StartInstance") {
              return yield* new InstanceRejected({ reason: "INVALID_STATE", message: `process instance ${instanceId} already exists` })
            }
            instance = current
          }

          const now = yield* Clock.currentTimeMillis
          const command = payload.command
          let outcome: ReturnType<typeof engine.execute>
          if (command.type === "MigrateInstance") {
            // A migration runs against the target version's graph, and the instance belongs to it from then on.
            const target = yield* store.deploymentForStart(payload.tenantId, command.targetDeploymentId)
            if (target === undefined) {
              return yield* new InstanceRejected({ reason: "NOT_FOUND", message: `deployment ${command.targetDeploymentId} not found` })
            }
            if (target.key !== instance.processKey) {
              return yield* new InstanceRejected({
                reason: "INVALID_ARGUMENT",
                message: `deployment ${target.id} is process ${target.key}, the instance runs process ${instance.processKey}: migration stays within one process`
              })
            }
            outcome = engine.migrate({ source: instance.graph, target: target.graph, instanceId, state: instance.engineState, command, now })
            instance = { ...instance, deploymentId: target.id, version: target.version, graph: target.graph }
          } else {
            outcome = engine.execute({ graph: instance.graph, instanceId, state: instance.engineState, command, now })
          }
          if (isRejection(outcome)) return yield* new InstanceRejected({ reason: outcome.reason, message: outcome.message })

          const reply: InstanceSnapshot = {
            ...snapshotOf(instance),
            state: outcome.status,
            lastEventSeq: instance.lastEventSeq + outcome.events.length
          }
          current = yield* store.commit({
            instance,
            created,
            outcome,
            commandId: payload.commandId,
            reply,
            actor: payload.actor,
            now: new Date(now).toISOString()
          })
          // Messages this command owes other instances were committed to the outbox: deliver them now.
          const owesMessages = outcome.changes.some((c) => c.kind === "ChildStartRequested" || c.kind === "ChildCancelRequested" || c.kind === "DecisionRequested" || c.kind === "SignalBroadcastRequested" ||
            (c.kind === "SubscriptionOpened" && c.subscriptionKind === "MESSAGE")) ||
            (outcome.status === "COMPLETED" && instance.parentInstanceId !== null)
          if (owesMessages) yield* relay.wake
          return reply
        })
    })
  }),
  { maxIdleTime: "5 minutes" }
)

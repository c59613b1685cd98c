// SQL of the ProcessInstance entity: load an instance, and commit one applied command — history events, the new
// state, the projections written from the events (projections/: jobs, tasks, subscriptions, incidents, scopes, the
// outbox) and the command id — in ONE transaction, so a crash leaves either all of it or none of it.
import { Array as Arr, Context, Effect, Exit, Layer, Metric } from "effect"
import { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { EngineOutcome, InstanceStatus } from "../engine/EngineOutcome.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { commitBatchSize } from "../observability/Metrics.ts"
import { makeGroupCommit } from "./GroupCommit.ts"
import type { OutboxMessage } from "./projections/OutboxMessage.ts"
import type { ProjectionContext } from "./projections/Projection.ts"
import { projectionOf } from "./projections/Registry.ts"

export type { OutboxKind, OutboxMessage } from "./projections/OutboxMessage.ts"
import { fromJson, toJson } from "./SqlValues.ts"

export interface StoredInstance {
  readonly id: string
  readonly tenantId: string
  readonly parentInstanceId: string | null
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly status: InstanceStatus
  readonly engineState: InstanceState | undefined
  readonly lastEventSeq: number
  readonly graph: ProcessGraph
}

export interface NewInstance {
  readonly id: string
  readonly tenantId: string
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly startedBy: string
  readonly parentInstanceId: string | null
  readonly parentNodeId: string | null
  readonly rootInstanceId: string
}

export interface Committed {
  readonly instance: StoredInstance
  /** Messages written to the outbox: the relay is woken to deliver them now. */
  readonly outboxWritten: number
}

export interface CommitInput {
  readonly instance: StoredInstance
  /** Present when the command started the instance: its row is inserted. */
  readonly created: NewInstance | undefined
  readonly outcome: EngineOutcome
  readonly commandId: string
  readonly reply: unknown
  readonly actor: string
  readonly now: string
}

export interface DeploymentForStart {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly graph: ProcessGraph
}

export interface InstanceStoreShape {
  readonly load: (instanceId: string) => Effect.Effect<StoredInstance | undefined>
  readonly deploymentForStart: (tenantId: string, deploymentId: string) => Effect.Effect<DeploymentForStart | undefined>
  /** The reply recorded for a command id, if it was applied before. */
  readonly recordedReply: (instanceId: string, commandId: string) => Effect.Effect<unknown | undefined>
  /** undefined: the command id was applied before (nothing is written; read its recorded reply). */
  readonly commit: (input: CommitInput) => Effect.Effect<Committed | undefined>
}

interface InstanceRow {
  readonly id: string
  readonly tenant_id: string
  readonly deployment_id: string
  readonly process_key: string
  readonly version: number
  readonly state: InstanceStatus
  readonly parent_instance_id: string | null
  readonly engine_state: unknown
  readonly last_event_seq: unknown
}

interface DeploymentRow {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly graph?: unknown
}

/** The most commands one transaction carries, and how many such transactions run at once. */
const MAX_BATCH = 64
const MAX_BATCHES_IN_FLIGHT = 4

/** Parsed graphs kept by deployment id (the oldest is dropped beyond this). */
const GRAPH_CACHE_SIZE = 1_000

const FINAL: ReadonlySet<InstanceStatus> = new Set(["COMPLETED", "CANCELED"])

export class InstanceStore extends Context.Service<InstanceStore, InstanceStoreShape>()("flowcore/InstanceStore") {
  static readonly layer = Layer.effect(
    InstanceStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const graphs = new Map<string, ProcessGraph>()
      const remember = (deploymentId: string, graph: ProcessGraph) => {
        if (graphs.size >= GRAPH_CACHE_SIZE) graphs.delete(graphs.keys().next().value as string)
        graphs.set(deploymentId, graph)
        return graph
      }
      /** A deployment's parsed graph, read once (an entity loaded after passivation shares it with the others). */
      const graphOf = (deploymentId: string) =>
        graphs.has(deploymentId)
          ? Effect.succeed(graphs.get(deploymentId))
          : Effect.map(
            sql<{ graph: unknown }>`SELECT graph FROM deployments WHERE id = ${deploymentId}`,
            (
              rows
            ) => (rows[0] === undefined ? undefined : remember(deploymentId, fromJson<ProcessGraph>(rows[0].graph)))
          )

      // Stored as kind = the message's tag and payload = its other fields.
      const outbox = (
        tenantId: string,
        source: string,
        target: string,
        { _tag, ...payload }: OutboxMessage,
        actor: string,
        now: string
      ) =>
        sql`INSERT INTO instance_outbox (tenant_id, source_instance_id, target_instance_id, kind, payload, actor, created_at)
          VALUES (${tenantId}, ${source}, ${target}, ${_tag}, ${toJson(payload)}::jsonb, ${actor}, ${now})`

      /** One command's rows, inside the batch's transaction; its history events are added to `events`. */
      const write = (
        { instance, created, outcome, commandId, reply, actor, now }: CommitInput,
        events: Array<Record<string, unknown>>
      ) =>
        Effect.gen(function*() {
          const tenantId = instance.tenantId
          const ended = FINAL.has(outcome.status) ? now : null
          const lastEventSeq = instance.lastEventSeq + outcome.events.length
          if (created !== undefined) {
            yield* sql`INSERT INTO process_instances (tenant_id, id, deployment_id, process_key, version, state,
                parent_instance_id, parent_node_id, root_instance_id, variables, variables_version, engine_state,
                last_event_seq, incident_count, started_by, started_at, ended_at, updated_at)
              VALUES (${tenantId}, ${created.id}, ${created.deploymentId}, ${created.processKey}, ${created.version},
                ${outcome.status}, ${created.parentInstanceId}, ${created.parentNodeId}, ${created.rootInstanceId},
                ${toJson(outcome.variables)}::jsonb, ${outcome.variablesVersion}, ${
              toJson(outcome.state)
            }::jsonb, ${lastEventSeq},
                ${outcome.openIncidents},
                ${created.startedBy}, ${now}, ${ended}, ${now})`
            yield* sql`INSERT INTO instance_commands (tenant_id, instance_id, command_id, reply, processed_at)
              VALUES (${tenantId}, ${instance.id}, ${commandId}, ${toJson(reply)}::jsonb, ${now})`
          } else {
            // Claiming the command id first makes a duplicate delivery write nothing (and costs no extra lookup).
            const claimed =
              yield* sql`INSERT INTO instance_commands (tenant_id, instance_id, command_id, reply, processed_at)
              VALUES (${tenantId}, ${instance.id}, ${commandId}, ${toJson(reply)}::jsonb, ${now})
              ON CONFLICT DO NOTHING RETURNING command_id`
            if (claimed.length === 0) return undefined
            // The guard on last_event_seq makes a stale writer (a second runner that still believes it owns the
            // entity) fail instead of overwriting newer state.
            // deployment_id and version change only by a migration.
            const updated = yield* sql`UPDATE process_instances SET state = ${outcome.status},
                deployment_id = ${instance.deploymentId}, version = ${instance.version},
                variables = ${toJson(outcome.variables)}::jsonb, variables_version = ${outcome.variablesVersion},
                engine_state = ${
              toJson(outcome.state)
            }::jsonb, last_event_seq = ${lastEventSeq}, incident_count = ${outcome.openIncidents},
                ended_at = coalesce(ended_at, ${ended}), updated_at = ${now}
              WHERE id = ${instance.id} AND last_event_seq = ${instance.lastEventSeq} RETURNING id`
            if (updated.length === 0) {
              return yield* Effect.die(new Error(`instance ${instance.id} was changed by another writer`))
            }
          }
          const eventRows: Array<Record<string, unknown>> = outcome.events.map((event, index) => ({
            tenant_id: tenantId,
            instance_id: instance.id,
            event_seq: instance.lastEventSeq + index + 1,
            type: event.type,
            node_id: event.nodeId,
            token_id: event.tokenId,
            payload: toJson(event.payload),
            actor,
            occurred_at: now
          }))
          events.push(...eventRows)
          let outboxWritten = 0
          const context: ProjectionContext = {
            sql,
            tenantId,
            instanceId: instance.id,
            parentInstanceId: instance.parentInstanceId,
            actor,
            now,
            outbox: (target, message) => {
              outboxWritten++
              return outbox(tenantId, instance.id, target, message, actor, now)
            }
          }
          for (const event of outcome.instanceEvents) {
            const projection = projectionOf(event)
            if (projection !== undefined) yield* projection(context, event)
          }
          // A called instance that completes tells its parent, which waits at the call activity.
          if (outcome.status === "COMPLETED" && instance.status !== "COMPLETED" && instance.parentInstanceId !== null) {
            yield* context.outbox(instance.parentInstanceId, { _tag: "CHILD_COMPLETED", variables: outcome.variables })
          }
          const committed: Committed = {
            instance: { ...instance, status: outcome.status, engineState: outcome.state, lastEventSeq },
            outboxWritten
          }
          return committed
        })

      /** The commands' rows in one transaction, their history events in one INSERT at the end. */
      const transaction = (batch: ReadonlyArray<CommitInput>) =>
        sql.withTransaction(Effect.gen(function*() {
          const events: Array<Record<string, unknown>> = []
          const results: Array<Committed | undefined> = []
          for (const input of batch) results.push(yield* write(input, events))
          if (Arr.isArrayNonEmpty(events)) yield* sql`INSERT INTO instance_events ${sql.insert(events)}`
          return results
        }))

      const alone = (input: CommitInput) =>
        transaction([input]).pipe(Effect.map((results) => results[0]), Effect.orDie, Effect.exit)

      // Group commit: the commands of many instances committed together, one fsync for all. When a batch fails (a
      // stale writer, a value the database refuses, a deadlock with another batch), each of its commands is tried
      // again alone, so only the faulty one fails.
      const commits = makeGroupCommit<CommitInput, Committed | undefined, never>({
        maxBatch: MAX_BATCH,
        maxInFlight: MAX_BATCHES_IN_FLIGHT,
        onBatch: (size) => Metric.update(commitBatchSize, size),
        flush: (batch) =>
          batch.length === 1
            ? Effect.map(alone(batch[0]), (exit) => [exit])
            : transaction(batch).pipe(
              Effect.map((results) => results.map((result) => Exit.succeed(result))),
              Effect.catchCause(() => Effect.forEach(batch, alone))
            )
      })
      const commit: InstanceStoreShape["commit"] = commits.submit

      return {
        load: (instanceId) =>
          Effect.gen(function*() {
            const rows = yield* sql<InstanceRow>`SELECT id, tenant_id, deployment_id, process_key, version, state,
                parent_instance_id, engine_state, last_event_seq FROM process_instances WHERE id = ${instanceId}`
            const row = rows[0]
            if (row === undefined) return undefined
            const graph = yield* graphOf(row.deployment_id)
            if (graph === undefined) return undefined
            return {
              id: row.id,
              tenantId: row.tenant_id,
              parentInstanceId: row.parent_instance_id,
              deploymentId: row.deployment_id,
              processKey: row.process_key,
              version: Number(row.version),
              status: row.state,
              engineState: fromJson<InstanceState>(row.engine_state),
              lastEventSeq: Number(row.last_event_seq),
              graph
            }
          }).pipe(Effect.orDie),
        deploymentForStart: (tenantId, deploymentId) =>
          Effect.gen(function*() {
            // A deployment's graph never changes: it is read and parsed once; its state (suspension) every time.
            const cached = graphs.get(deploymentId)
            const rows = yield* (cached === undefined
              ? sql<DeploymentRow>`SELECT id, key, version, state, graph FROM deployments
                  WHERE tenant_id = ${tenantId} AND id = ${deploymentId}`
              : sql<DeploymentRow>`SELECT id, key, version, state FROM deployments
                  WHERE tenant_id = ${tenantId} AND id = ${deploymentId}`)
            const row = rows[0]
            if (row === undefined) return undefined
            const graph = cached ?? remember(deploymentId, fromJson<ProcessGraph>(row.graph))
            return { id: row.id, key: row.key, version: Number(row.version), state: row.state, graph }
          }).pipe(Effect.orDie),
        recordedReply: (instanceId, commandId) =>
          sql<
            { reply: unknown }
          >`SELECT reply FROM instance_commands WHERE instance_id = ${instanceId} AND command_id = ${commandId}`.pipe(
            Effect.map((rows) => (rows[0] === undefined ? undefined : fromJson(rows[0].reply))),
            Effect.orDie
          ),
        commit
      }
    })
  )
}

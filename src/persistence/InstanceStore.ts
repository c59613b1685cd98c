// SQL of the ProcessInstance entity: load an instance, and commit one applied command — history events, the new
// state, the projections written from the events (projections/: jobs, tasks, subscriptions, incidents, scopes, the
// outbox) and the command id — in ONE transaction, so a crash leaves either all of it or none of it.
import { Array as Arr, Context, Effect, Exit, Layer, Metric } from "effect"
import { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { EngineOutcome, InstanceStatus } from "../engine/EngineOutcome.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { commitBatchSize } from "../observability/Metrics.ts"
import { BatchWrites, insertRows } from "./BatchWrites.ts"
import { makeGroupCommit } from "./GroupCommit.ts"
import type { OutboxMessage } from "./projections/OutboxMessage.ts"
import type { ProjectionContext } from "./projections/Projection.ts"
import { projectionOf } from "./projections/Registry.ts"

export type { OutboxKind, OutboxMessage } from "./projections/OutboxMessage.ts"
import { fromJson, pgArray, toJson } from "./SqlValues.ts"

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
const MAX_BATCHES_IN_FLIGHT = 2

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

      /** The rows of one command (not its instance row or command id), gathered into the batch's writes. */
      const gather = (
        { instance, outcome, actor, now }: CommitInput,
        writes: BatchWrites,
        events: Array<Record<string, unknown>>
      ): number => {
        const tenantId = instance.tenantId
        outcome.events.forEach((event, index) =>
          events.push({
            tenant_id: tenantId,
            instance_id: instance.id,
            event_seq: instance.lastEventSeq + index + 1,
            type: event.type,
            node_id: event.nodeId,
            token_id: event.tokenId,
            payload: toJson(event.payload),
            actor,
            occurred_at: now
          })
        )
        let outboxWritten = 0
        // Stored as kind = the message's tag and payload = its other fields.
        const outbox = (target: string, { _tag, ...payload }: OutboxMessage) => {
          outboxWritten++
          writes.insert("instance_outbox", {
            tenant_id: tenantId,
            source_instance_id: instance.id,
            target_instance_id: target,
            kind: _tag,
            payload: toJson(payload),
            actor,
            created_at: now
          })
        }
        const context: ProjectionContext = {
          writes,
          tenantId,
          instanceId: instance.id,
          parentInstanceId: instance.parentInstanceId,
          actor,
          now,
          outbox
        }
        for (const event of outcome.instanceEvents) projectionOf(event)?.(context, event)
        // A called instance that completes tells its parent, which waits at the call activity.
        if (outcome.status === "COMPLETED" && instance.status !== "COMPLETED" && instance.parentInstanceId !== null) {
          outbox(instance.parentInstanceId, { _tag: "CHILD_COMPLETED", variables: outcome.variables })
        }
        return outboxWritten
      }

      const lastEventSeqOf = (input: CommitInput) => input.instance.lastEventSeq + input.outcome.events.length
      const endedAt = (input: CommitInput) => (FINAL.has(input.outcome.status) ? input.now : null)

      /**
       * The commands of a batch in one transaction and a fixed number of statements: new instances, command ids,
       * instance updates, then every projection's rows (BatchWrites), then the history events. Answers undefined for
       * a command whose id was applied before — alone only: in a larger batch that fails the batch, and each command
       * is then committed alone.
       */
      const transaction = (batch: ReadonlyArray<CommitInput>) =>
        sql.withTransaction(Effect.gen(function*() {
          const created = batch.filter((input) => input.created !== undefined)
          // ON CONFLICT: a start whose row exists (a start redelivered after its entity restarted) writes nothing
          // and answers as a duplicate.
          const inserted = created.length === 0 ?
            [] :
            yield* sql`INSERT INTO process_instances ${
              sql.insert(Arr.map(created as unknown as Arr.NonEmptyReadonlyArray<CommitInput>, (input) => {
                const instance = input.created!
                return {
                  tenant_id: instance.tenantId,
                  id: instance.id,
                  deployment_id: instance.deploymentId,
                  process_key: instance.processKey,
                  version: instance.version,
                  state: input.outcome.status,
                  parent_instance_id: instance.parentInstanceId,
                  parent_node_id: instance.parentNodeId,
                  root_instance_id: instance.rootInstanceId,
                  variables: toJson(input.outcome.variables),
                  variables_version: input.outcome.variablesVersion,
                  engine_state: toJson(input.outcome.state),
                  last_event_seq: lastEventSeqOf(input),
                  incident_count: input.outcome.openIncidents,
                  started_by: instance.startedBy,
                  started_at: input.now,
                  ended_at: endedAt(input),
                  updated_at: input.now
                }
              }))
            } ON CONFLICT (id) DO NOTHING RETURNING id`
          if (inserted.length < created.length) {
            if (batch.length === 1) return [undefined]
            return yield* Effect.die(new Error("an instance of the batch exists already"))
          }
          // Claiming the command ids before any other write makes a duplicate delivery write nothing (and costs no extra lookup).
          const claimed = yield* sql`INSERT INTO instance_commands ${
            sql.insert(Arr.map(batch as Arr.NonEmptyReadonlyArray<CommitInput>, (input) => ({
              tenant_id: input.instance.tenantId,
              instance_id: input.instance.id,
              command_id: input.commandId,
              reply: toJson(input.reply),
              processed_at: input.now
            })))
          } ON CONFLICT DO NOTHING RETURNING command_id`
          if (claimed.length < batch.length) {
            if (batch.length === 1) return [undefined]
            return yield* Effect.die(new Error("a command of the batch was applied before"))
          }
          const updates = batch.filter((input) => input.created === undefined)
          if (updates.length > 0) {
            // The guard on last_event_seq makes a stale writer (a second runner that still believes it owns the
            // entity) fail instead of overwriting newer state. deployment_id and version change only by a migration.
            const rows = updates.map((input) => ({
              id: input.instance.id,
              previous_seq: input.instance.lastEventSeq,
              state: input.outcome.status,
              deployment_id: input.instance.deploymentId,
              version: input.instance.version,
              variables: input.outcome.variables,
              variables_version: input.outcome.variablesVersion,
              engine_state: input.outcome.state,
              last_event_seq: lastEventSeqOf(input),
              incident_count: input.outcome.openIncidents,
              ended_at: endedAt(input),
              updated_at: input.now
            }))
            const updated = yield* sql`UPDATE process_instances AS p SET state = v.state,
                deployment_id = v.deployment_id, version = v.version, variables = v.variables,
                variables_version = v.variables_version, engine_state = v.engine_state,
                last_event_seq = v.last_event_seq, incident_count = v.incident_count,
                ended_at = coalesce(p.ended_at, v.ended_at), updated_at = v.updated_at
              FROM jsonb_to_recordset(${toJson(rows)}::jsonb) AS v(id uuid, previous_seq bigint, state text,
                deployment_id uuid, version integer, variables jsonb, variables_version integer, engine_state jsonb,
                last_event_seq bigint, incident_count integer, ended_at timestamptz, updated_at timestamptz)
              WHERE p.id = v.id AND p.last_event_seq = v.previous_seq
                AND p.id = ANY(${pgArray(rows.map((row) => row.id))}::uuid[]) RETURNING p.id`
            if (updated.length < updates.length) {
              const stale = updates.find((input) => !updated.some((row) => row["id"] === input.instance.id))
              return yield* Effect.die(new Error(`instance ${stale?.instance.id} was changed by another writer`))
            }
          }
          const writes = new BatchWrites()
          const events: Array<Record<string, unknown>> = []
          const outboxWritten = batch.map((input) => gather(input, writes, events))
          const outboxFromClaims = yield* writes.flush(sql)
          yield* insertRows(sql, "instance_events", events)
          return batch.map((input, index): Committed => ({
            instance: {
              ...input.instance,
              status: input.outcome.status,
              engineState: input.outcome.state,
              lastEventSeq: lastEventSeqOf(input)
            },
            outboxWritten: outboxWritten[index]! + (outboxFromClaims.has(input.instance.id) ? 1 : 0)
          }))
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

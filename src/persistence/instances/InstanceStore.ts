// SQL of the ProcessInstance entity: load an instance, and commit one applied command — history events, the new
// state, the projections written from the events (projections/: jobs, tasks, subscriptions, incidents, scopes, the
// outbox) and the command id — in ONE transaction, so a crash leaves either all of it or none of it.
import { Cause, Context, Effect, Exit, Layer, Metric } from "effect"
import { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import type { InstanceState } from "../../engine/InstanceState.ts"
import { commitBatchSize, countCommit } from "../../observability/Metrics.ts"
import { BatchWrites, TABLES } from "../BatchWrites.ts"
import { makeGroupCommit } from "../GroupCommit.ts"
import type { OutboxMessage } from "../projections/OutboxMessage.ts"
import type { ProjectionContext } from "../projections/Projection.ts"
import { projectionOf } from "../projections/Registry.ts"
import { type ColumnTypes, insertFromRecordSet, insertRecordSets, loadColumnTypes } from "../RecordSetInsert.ts"
import { withOfferedAudits } from "./CommitAudit.ts"
import { DeploymentStates } from "./DeploymentStates.ts"
import {
  commandRow,
  type CommitInput,
  type Committed,
  committedOf,
  createdRow,
  type StoredInstance,
  updateInstances
} from "./InstanceCommit.ts"
import { type InstanceRow, InstanceSnapshots } from "./InstanceSnapshots.ts"
import { claimsWait, isBatchCheckFailure, oneStatementCommit } from "./OneStatementCommit.ts"

export type { OutboxKind, OutboxMessage } from "../projections/OutboxMessage.ts"
import { fromJson, isUuid, jsonColumn, pgArray } from "../SqlValues.ts"

export type { CommitInput, Committed, NewInstance, StoredInstance } from "./InstanceCommit.ts"
export interface DeploymentForStart {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly graph: ProcessGraph
}

export interface InstanceStoreShape {
  readonly load: (instanceId: string) => Effect.Effect<StoredInstance | undefined>
  /** The instance as a message's lookup just read it (InstanceSnapshots), if it did: undefined means load it. */
  readonly snapshot: (instanceId: string) => Effect.Effect<StoredInstance | undefined>
  readonly deploymentForStart: (tenantId: string, deploymentId: string) => Effect.Effect<DeploymentForStart | undefined>
  /** The reply recorded for a command id, if it was applied before. */
  readonly recordedReply: (instanceId: string, commandId: string) => Effect.Effect<unknown | undefined>
  /** undefined: the command id was applied before (nothing is written; read its recorded reply). */
  readonly commit: (input: CommitInput) => Effect.Effect<Committed | undefined>
}

interface DeploymentRow {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly graph?: unknown
}

/** A batch's rows gathered from its commands' events, to be written one way or the other. */
interface Gathered {
  readonly writes: BatchWrites
  readonly events: ReadonlyArray<Record<string, unknown>>
  /** Outbox messages written per command, in batch order. */
  readonly outboxWritten: ReadonlyArray<number>
}

/**
 * The most commands one transaction carries, and how many such transactions run at once (a batch written as one
 * statement holds no connection of its own, so four in flight shorten the wait without splitting batches much).
 */
const MAX_BATCH = 64
const MAX_BATCHES_IN_FLIGHT = 4

/** Parsed graphs kept by deployment id (the oldest is dropped beyond this). */
const GRAPH_CACHE_SIZE = 1_000

/** The tables a batch written as one statement inserts into (their column types are read once). */
const ONE_STATEMENT_TABLES = ["process_instances", "instance_commands", "instance_event_batches", ...TABLES]

/** A commit found its instance changed by another writer since the copy it came from was loaded: nothing written. */
export class StaleInstanceWrite extends Error {
  readonly instanceId: string
  constructor(instanceId: string) {
    super(`instance ${instanceId} was changed by another writer`)
    this.instanceId = instanceId
  }
}

export class InstanceStore extends Context.Service<InstanceStore, InstanceStoreShape>()("flowcore/InstanceStore") {
  static readonly layer = Layer.effect(
    InstanceStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const deploymentStates = yield* DeploymentStates
      const snapshots = yield* InstanceSnapshots
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
        { instance, outcome, actor, now, leases, auditRows }: CommitInput,
        writes: BatchWrites,
        events: Array<Record<string, unknown>>
      ): number => {
        const tenantId = instance.tenantId
        for (const row of auditRows ?? []) writes.insert("audit_events", row)
        // The command's history events as one row (the view instance_events numbers them from first_seq).
        if (outcome.events.length > 0) {
          events.push({
            tenant_id: tenantId,
            instance_id: instance.id,
            first_seq: instance.lastEventSeq + 1,
            events: outcome.events.map((event) => ({
              type: event.type,
              node_id: event.nodeId,
              token_id: event.tokenId,
              payload: event.payload
            })),
            actor,
            occurred_at: now
          })
        }
        let outboxWritten = 0
        // Stored as kind = the message's tag and payload = its other fields.
        const outbox = (target: string, { _tag, ...payload }: OutboxMessage) => {
          outboxWritten++
          writes.insert("instance_outbox", {
            tenant_id: tenantId,
            source_instance_id: instance.id,
            target_instance_id: target,
            kind: _tag,
            payload: jsonColumn(payload),
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
          outbox,
          leaseOf: (jobId) => leases?.get(jobId)
        }
        for (const event of outcome.instanceEvents) projectionOf(event)?.(context, event)
        // A called instance that completes tells its parent, which waits at the call activity.
        if (outcome.status === "COMPLETED" && instance.status !== "COMPLETED" && instance.parentInstanceId !== null) {
          outbox(instance.parentInstanceId, { _tag: "CHILD_COMPLETED", variables: outcome.variables })
        }
        return outboxWritten
      }

      /** Every command's projection rows and history events, gathered for one write of the batch. */
      const gatherBatch = (batch: ReadonlyArray<CommitInput>): Gathered => {
        const writes = new BatchWrites()
        const events: Array<Record<string, unknown>> = []
        const outboxWritten = batch.map((input) => gather(input, writes, events))
        return { writes, events, outboxWritten }
      }

      /**
       * The commands of a batch in one transaction and a fixed number of statements: new instances, command ids,
       * instance updates, then every projection's rows (BatchWrites), then the history events. Answers undefined for
       * a command whose id was applied before — alone only: in a larger batch that fails the batch, and each command
       * is then committed alone.
       */
      const transactionBody = Effect.fnUntraced(function*(batch: ReadonlyArray<CommitInput>, gathered?: Gathered) {
        // Every INSERT takes its rows as one jsonb parameter, so its prepared statement serves any batch size.
        const types = yield* typesOfColumns
        const created = batch.filter((input) => input.created !== undefined)
        // ON CONFLICT: a start whose row exists (a start redelivered after its entity restarted) writes nothing
        // and answers as a duplicate.
        const inserted = created.length === 0 ?
          [] :
          yield* insertFromRecordSet(
            sql,
            types,
            "process_instances",
            created.map(createdRow),
            "ON CONFLICT (id) DO NOTHING RETURNING id"
          )
        if (inserted.length < created.length) {
          if (batch.length === 1) return [undefined]
          return yield* Effect.die(new Error("an instance of the batch exists already"))
        }
        // Claiming the command ids before any other write makes a duplicate delivery write nothing (and costs no extra lookup).
        const claimed = yield* insertFromRecordSet(
          sql,
          types,
          "instance_commands",
          batch.map(commandRow),
          "ON CONFLICT DO NOTHING RETURNING command_id"
        )
        if (claimed.length < batch.length) {
          if (batch.length === 1) return [undefined]
          return yield* Effect.die(new Error("a command of the batch was applied before"))
        }
        const updates = batch.filter((input) => input.created === undefined)
        if (updates.length > 0) {
          const updated = yield* updateInstances(sql, updates)
          if (updated.length < updates.length) {
            const stale = updates.find((input) => !updated.some((row) => row["id"] === input.instance.id))
            return yield* Effect.die(new StaleInstanceWrite(stale?.instance.id ?? "?"))
          }
        }
        const { events, outboxWritten, writes } = gathered ?? gatherBatch(batch)
        const outboxFromClaims = yield* writes.flush(sql, types)
        yield* insertRecordSets(sql, types, "instance_event_batches", events)
        return batch.map((input, index) =>
          committedOf(input, outboxWritten[index]! + (outboxFromClaims.has(input.instance.id) ? 1 : 0))
        )
      })
      const transaction = (batch: ReadonlyArray<CommitInput>, gathered?: Gathered) =>
        sql.withTransaction(transactionBody(batch, gathered))

      let columnTypes: ColumnTypes | undefined
      const typesOfColumns = Effect.suspend(() =>
        columnTypes !== undefined ? Effect.succeed(columnTypes) : Effect.tap(
          loadColumnTypes(sql, ONE_STATEMENT_TABLES),
          (types) => Effect.sync(() => void (columnTypes = types))
        )
      )

      /**
       * The batch as ONE statement (OneStatementCommit.ts); not written (its gathered rows handed back for
       * `transaction`) when its writes need statements of their own (BatchWrites.parts: claims with something to take,
       * sequential statements, a row inserted and changed in the same batch). Fails when a check fails: the commands
       * are then written one by one with `transaction`.
       */
      const oneStatement = Effect.fnUntraced(function*(batch: ReadonlyArray<CommitInput>) {
        const types = yield* typesOfColumns
        const gathered = gatherBatch(batch)
        const { events, outboxWritten, writes } = gathered
        const statement = writes.parts(sql, types)
        if (statement === undefined) return { written: false as const, gathered }
        const updates = batch.filter((input) => input.created === undefined)
        const outcome = yield* Effect.exit(oneStatementCommit(sql, types, {
          created: batch.filter((input) => input.created !== undefined).map(createdRow),
          commands: batch.map(commandRow),
          updated: updates.length === 0
            ? undefined
            : { statement: updateInstances(sql, updates), count: updates.length },
          parts: statement.parts,
          unclaimed: statement.unclaimed,
          events
        }))
        // Its claims have something to take (a buffered message for a new subscription): nothing was written, and
        // the batch runs them in a transaction.
        if (outcome._tag === "Failure" && claimsWait(outcome.cause)) return { written: false as const, gathered }
        if (outcome._tag === "Failure") return yield* Effect.failCause(outcome.cause)
        return {
          written: true as const,
          results: batch.map((input, index) => committedOf(input, outboxWritten[index]!))
        }
      })

      const alone = (input: CommitInput) =>
        transaction([input]).pipe(Effect.map((results) => results[0]), Effect.orDie, Effect.exit)

      // Group commit: the commands of many instances committed together, one fsync for all — as one statement where
      // the writes allow, else as a transaction of several. When a batch fails (a duplicate, a stale writer, a value
      // the database refuses, a deadlock with another batch), each of its commands is tried again alone, so only the
      // faulty one fails (and a duplicate is told apart: it answers undefined).
      const commits = makeGroupCommit<CommitInput, Committed | undefined, never>({
        maxBatch: MAX_BATCH,
        maxInFlight: MAX_BATCHES_IN_FLIGHT,
        onBatch: (size) => Metric.update(commitBatchSize, size),
        flush: (batch) =>
          oneStatement(batch).pipe(
            Effect.flatMap((outcome) =>
              outcome.written
                ? Effect.as(countCommit("one_statement"), outcome.results)
                : Effect.tap(transaction(batch, outcome.gathered), () => countCommit("transaction"))
            ),
            Effect.map((results) => results.map((result) => Exit.succeed(result))),
            Effect.catchCause((cause) =>
              // A lone command the database refused (other than by the batch's check, which a duplicate fails) has
              // failed: writing it again would not change that.
              batch.length === 1 && !isBatchCheckFailure(cause)
                ? Effect.succeed([Exit.die(Cause.squash(cause)) as Exit.Exit<Committed | undefined>])
                : Effect.andThen(countCommit("one_by_one"), Effect.forEach(batch, alone))
            )
          )
      })
      // The rows of instances loaded at about the same time (commands for instances not in memory: a burst of
      // correlations to waiting instances) are read by one statement. Each load comes after its instance's earlier
      // commits (one command at a time per instance), so the batched read sees what a read of its own would.
      const rows = makeGroupCommit<string, InstanceRow | undefined, never>({
        maxBatch: 256,
        maxInFlight: 4,
        flush: (ids) => {
          const asked = ids.filter(isUuid)
          return (asked.length === 0 ? Effect.succeed([]) : sql<InstanceRow>`SELECT id, tenant_id, deployment_id,
              process_key, version, state, parent_instance_id, engine_state, last_event_seq FROM process_instances
              WHERE id = ANY(${pgArray(asked)}::uuid[])`).pipe(
            Effect.orDie,
            Effect.map((found) => {
              const byId = new Map(found.map((row) => [row.id, row]))
              return ids.map((id) => Exit.succeed(byId.get(id.toLowerCase())))
            })
          )
        }
      })

      // The request's audit record rides with its first command committed here, and so do those of the workers its
      // jobs are leased to (CommitAudit.ts).
      const commit: InstanceStoreShape["commit"] = (input) =>
        withOfferedAudits(
          { tenantId: input.instance.tenantId, instanceId: input.instance.id, started: input.created !== undefined },
          input.now,
          input.alsoAudit,
          (auditRows) => commits.submit(auditRows === undefined ? input : { ...input, auditRows })
        )

      const storedOf = Effect.fnUntraced(function*(row: InstanceRow | undefined) {
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
        } satisfies StoredInstance
      }, Effect.orDie)

      return {
        load: (instanceId) => Effect.flatMap(rows.submit(instanceId), storedOf),
        snapshot: (instanceId) => storedOf(snapshots.take(instanceId)),
        deploymentForStart: Effect.fnUntraced(function*(tenantId, deploymentId) {
          // A deployment's graph never changes: it is read and parsed once; its state (suspension) at most every
          // FRESH_FOR_MS (DeploymentStates).
          const cached = graphs.get(deploymentId)
          const known = cached === undefined ? undefined : deploymentStates.fresh(tenantId, deploymentId)
          if (known !== undefined) return { ...known, graph: cached! }
          const rows = yield* (cached === undefined
            ? sql<DeploymentRow>`SELECT id, key, version, state, graph FROM deployments
                  WHERE tenant_id = ${tenantId} AND id = ${deploymentId}`
            : sql<DeploymentRow>`SELECT id, key, version, state FROM deployments
                  WHERE tenant_id = ${tenantId} AND id = ${deploymentId}`)
          const row = rows[0]
          if (row === undefined) return undefined
          const graph = cached ?? remember(deploymentId, fromJson<ProcessGraph>(row.graph))
          const state = { tenantId, id: row.id, key: row.key, version: Number(row.version), state: row.state }
          deploymentStates.remember(state)
          return { ...state, graph }
        }, Effect.orDie),
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

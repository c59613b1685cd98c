// A group-committed batch of instance commands written as ONE SQL statement: every write a data-modifying CTE, the row
// values in a jsonb parameter per part. On its own (autocommit) the statement is one transaction, so the batch costs
// one round trip and one socket write — shared with other statements of the multiplexed connection — instead of
// BEGIN, a statement per table and COMMIT, each a write and a wait of its own on a pinned connection.
//
// The checks the multi-statement transaction makes between its statements (an instance that exists already, a command
// id applied before, an instance changed by another writer) are made at the end by flowcore_batch_check (migration
// 0029): when one fails, the statement raises, nothing of the batch is written, and InstanceStore writes its commands
// again one by one the multi-statement way, which tells them apart.
import { Cause } from "effect"
import { type SqlClient, SqlError, type Statement } from "effect/sql"
import { type ColumnTypes, insertFromRecordSet } from "../RecordSetInsert.ts"

export interface OneStatementBatch {
  /** process_instances rows of the commands that start an instance. */
  readonly created: ReadonlyArray<Record<string, unknown>>
  /** instance_commands rows, one per command. */
  readonly commands: ReadonlyArray<Record<string, unknown>>
  /** The guarded UPDATE of the other commands' instances (RETURNING a row per instance it changed), if any. */
  readonly updated: { readonly statement: Statement.Fragment; readonly count: number } | undefined
  /** The projections' writes (BatchWrites.parts). */
  readonly parts: ReadonlyArray<Statement.Fragment>
  /** Conditions true when the batch's claims have nothing to take (BatchWrites.parts). */
  readonly unclaimed: ReadonlyArray<Statement.Fragment>
  /** instance_event_batches rows (one per command: its history events). */
  readonly events: ReadonlyArray<Record<string, unknown>>
}

export const oneStatementCommit = (
  sql: SqlClient.SqlClient,
  types: ColumnTypes,
  batch: OneStatementBatch
): Statement.Statement<{ readonly ok: boolean }> => {
  const ctes: Array<Statement.Fragment> = []
  const checks: Array<Statement.Fragment> = []
  const part = (name: string, fragment: Statement.Fragment) => ctes.push(sql`${sql.literal(name)} AS (${fragment})`)
  if (batch.created.length > 0) {
    part(
      "created",
      insertFromRecordSet(sql, types, "process_instances", batch.created, "ON CONFLICT (id) DO NOTHING RETURNING id")
    )
    checks.push(sql`(SELECT count(*) FROM created) = ${batch.created.length}`)
  }
  part(
    "claimed",
    insertFromRecordSet(sql, types, "instance_commands", batch.commands, "ON CONFLICT DO NOTHING RETURNING command_id")
  )
  checks.push(sql`(SELECT count(*) FROM claimed) = ${batch.commands.length}`)
  if (batch.updated !== undefined) {
    part("updated", batch.updated.statement)
    checks.push(sql`(SELECT count(*) FROM updated) = ${batch.updated.count}`)
  }
  batch.parts.forEach((fragment, index) => part(`written_${index}`, fragment))
  if (batch.events.length > 0) part("events", insertFromRecordSet(sql, types, "instance_event_batches", batch.events))
  const checked = sql`flowcore_batch_check(${
    sql.and(checks)
  }, 'an instance of the batch exists already, a command was applied before, or an instance changed meanwhile')`
  // CASE evaluates in order: a batch that fails both checks is told apart as the first.
  return batch.unclaimed.length === 0
    ? sql<{ readonly ok: boolean }>`WITH ${sql.csv(ctes)} SELECT ${checked} AS ok`
    : sql<{ readonly ok: boolean }>`WITH ${sql.csv(ctes)} SELECT CASE WHEN ${checked} THEN flowcore_batch_check(${
      sql.and(batch.unclaimed)
    }, 'buffered messages wait for a new subscription', ${CLAIMS_WAIT}) END AS ok`
}

/** The SQLSTATE flowcore_batch_check raises with (migration 0029). */
const BATCH_CHECK_FAILED = "FB001"
/** The SQLSTATE of the second check: the batch's claims have something to take (migration 0031). */
const CLAIMS_WAIT = "FB002"

const sqlStateOf = (cause: Cause.Cause<unknown>): unknown => {
  const error = Cause.squash(cause)
  return SqlError.isSqlError(error)
    ? (error.reason as { readonly cause?: { readonly code?: unknown } }).cause?.code
    : undefined
}

/** True when a batch failed a check (a duplicate, a stale writer, a claim), not on a value or an error of the database. */
export const isBatchCheckFailure = (cause: Cause.Cause<unknown>): boolean => {
  const code = sqlStateOf(cause)
  return code === BATCH_CHECK_FAILED || code === CLAIMS_WAIT
}

/** True when a batch was not written because its claims have something to take (it then runs them in a transaction). */
export const claimsWait = (cause: Cause.Cause<unknown>): boolean => sqlStateOf(cause) === CLAIMS_WAIT

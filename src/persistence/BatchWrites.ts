// The rows one group-committed transaction writes, gathered first and written per statement shape: every table's new
// rows in one multi-row INSERT, every update or delete of one shape in one statement over a JSON row set. A batch of
// 64 commands then costs a handful of round trips instead of several per command (each statement on a pinned
// connection is one socket write and one wait).
//
// Order within the transaction: inserts (in TABLES order), claims (buffered messages taken by new subscriptions), the
// statements that must run one by one (in the order they were written), then updates and deletes. A row inserted by
// a command is therefore there for the updates and deletes of the same batch; the sequential statements only touch
// rows of earlier commands.
import { Effect } from "effect"
import type { SqlClient, SqlError, Statement } from "effect/sql"
import { byColumns, type ColumnTypes, insertFromRecordSet, insertRecordSets } from "./RecordSetInsert.ts"

/** Tables that take new rows, in the order they are written (a row's references come first). */
export const TABLES = [
  "jobs",
  "user_tasks",
  "event_subscriptions",
  "incidents",
  "instance_scopes",
  "instance_outbox",
  "audit_events"
] as const
export type InsertTable = typeof TABLES[number]

/** One statement applied to many rows at once; a later row with the same key replaces an earlier one. */
export type RowsStatement<R> = RowsChange<R> | RowsClaim<R>

/** An UPDATE or DELETE over the rows as a JSON row set: one SQL statement (it can stand in a larger one). */
export interface RowsChange<R> {
  readonly name: string
  readonly phase: "update" | "delete"
  readonly table: InsertTable
  readonly key: (row: R) => string
  /**
   * The same key, of a row this batch inserts into `table`: a row inserted and changed by one batch needs the change as
   * a statement of its own after the insert (within one statement, no part sees the rows another part writes).
   */
  readonly insertedKey: (row: Record<string, unknown>) => string
  readonly statement: (sql: SqlClient.SqlClient, rows: ReadonlyArray<R>) => Statement.Statement<unknown>
}

/** Work over the rows that takes several statements (claiming buffered messages). */
export interface RowsClaim<R> {
  readonly name: string
  readonly phase: "claim"
  readonly key: (row: R) => string
  /**
   * A condition true when the claim has nothing to take (usually so): the batch is then written as one statement,
   * which checks it; where it is false the statement writes nothing and the batch runs the claim in a transaction.
   */
  readonly nothingToClaim: (sql: SqlClient.SqlClient, rows: ReadonlyArray<R>) => Statement.Fragment
  /** `outboxWritten` is told each instance a message was written to the outbox for (the relay is woken for it). */
  readonly run: (
    sql: SqlClient.SqlClient,
    rows: ReadonlyArray<R>,
    outboxWritten: (instanceId: string) => void
  ) => Effect.Effect<unknown, SqlError.SqlError>
}

/** A batch's writes as parts of one statement, valid where every `unclaimed` condition holds. */
export interface StatementParts {
  readonly parts: ReadonlyArray<Statement.Fragment>
  readonly unclaimed: ReadonlyArray<Statement.Fragment>
}

type Sequential = (sql: SqlClient.SqlClient) => Effect.Effect<unknown, SqlError.SqlError>

export class BatchWrites {
  private readonly inserts = new Map<InsertTable, Array<Record<string, unknown>>>()
  private readonly sequential: Array<Sequential> = []
  private readonly keyed = new Map<RowsStatement<any>, Map<string, unknown>>()

  insert(table: InsertTable, row: Record<string, unknown>): void {
    const rows = this.inserts.get(table)
    if (rows === undefined) this.inserts.set(table, [row])
    else rows.push(row)
  }

  rows<R>(statement: RowsStatement<R>, row: R): void {
    let rows = this.keyed.get(statement)
    if (rows === undefined) {
      rows = new Map()
      this.keyed.set(statement, rows)
    }
    const key = statement.key(row)
    rows.delete(key) // the latest write of a key is the one applied, in its own place in the order
    rows.set(key, row)
  }

  /** A statement that runs alone, after the inserts, in the order written (for rare writes). */
  then(statement: Sequential): void {
    this.sequential.push(statement)
  }

  /**
   * The writes as parts of ONE statement (data-modifying CTEs: inserts first, then updates and deletes), with the
   * conditions under which that statement may stand for them (its claims have nothing to take: `unclaimed`), or
   * undefined when they need statements of their own: a sequential statement (it reads what was written before it),
   * or a row both inserted and changed by this batch.
   */
  parts(sql: SqlClient.SqlClient, types: ColumnTypes): StatementParts | undefined {
    if (this.sequential.length > 0) return undefined
    const changes: Array<Statement.Fragment> = []
    const unclaimed: Array<Statement.Fragment> = []
    for (const [statement, rows] of this.keyed) {
      if (statement.phase === "claim") {
        unclaimed.push(statement.nothingToClaim(sql, [...rows.values()]))
        continue
      }
      const inserted = this.inserts.get(statement.table)
      if (inserted !== undefined && inserted.some((row) => rows.has(statement.insertedKey(row)))) return undefined
      changes.push(statement.statement(sql, [...rows.values()]))
    }
    const inserts = TABLES.flatMap((table) =>
      byColumns(this.inserts.get(table) ?? []).map((rows) => insertFromRecordSet(sql, types, table, rows))
    )
    return { parts: [...inserts, ...changes], unclaimed }
  }

  /** Writes everything; answers the instances that got outbox messages beyond those inserted with `insert`. */
  flush(sql: SqlClient.SqlClient, types: ColumnTypes): Effect.Effect<ReadonlySet<string>, SqlError.SqlError> {
    const outboxFor = new Set<string>()
    const written = (instanceId: string) => void outboxFor.add(instanceId)
    const phase = (name: RowsStatement<unknown>["phase"]) =>
      Effect.forEach(
        [...this.keyed].filter(([statement]) => statement.phase === name),
        ([statement, rows]) =>
          statement.phase === "claim"
            ? statement.run(sql, [...rows.values()], written)
            : statement.statement(sql, [...rows.values()]),
        { discard: true }
      )
    const inserts = this.inserts
    const sequential = this.sequential
    return Effect.gen(function*() {
      for (const table of TABLES) yield* insertRecordSets(sql, types, table, inserts.get(table) ?? [])
      yield* phase("claim")
      for (const statement of sequential) yield* statement(sql)
      yield* phase("update")
      yield* phase("delete")
      return outboxFor
    })
  }
}

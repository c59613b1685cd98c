// An INSERT of many rows whose values travel as ONE jsonb parameter (`jsonb_to_recordset`) instead of a parameter per
// value: its SQL text depends only on the table and the columns, so the prepared statement is reused whatever the
// number of rows, and it can stand as one part (a CTE) of a larger statement (persistence/OneStatementCommit.ts).
//
// The record set needs each column's type: they are read from the catalog once (the tables are the migrations' own).
// A jsonb column travels as text and is cast, so its value may be the JSON text the projections write (toJson) or a
// plain object alike.
import { Effect } from "effect"
import type { SqlClient, SqlError, Statement } from "effect/sql"
import { pgArray } from "./SqlValues.ts"

/** Column name -> SQL type (as format_type spells it), by table. */
export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>

/** The column types of the given tables, from the catalog of the current schema. */
export const loadColumnTypes = (
  sql: SqlClient.SqlClient,
  tables: ReadonlyArray<string>
): Effect.Effect<ColumnTypes, SqlError.SqlError> =>
  Effect.map(
    sql<{ table_name: string; column_name: string; column_type: string }>`
      SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS column_type
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        AND c.relname = ANY(${pgArray(tables)}::text[])`,
    (rows) => {
      const types = new Map<string, Map<string, string>>()
      for (const row of rows) {
        const columns = types.get(row.table_name) ?? new Map<string, string>()
        columns.set(row.column_name, row.column_type)
        types.set(row.table_name, columns)
      }
      return types
    }
  )

const quoted = (identifier: string) => `"${identifier.replaceAll("\"", "\"\"")}"`

/**
 * `INSERT INTO table (columns) SELECT ... FROM jsonb_to_recordset($rows)`, for rows that all have the same columns
 * (the caller groups them so). `suffix` follows it (ON CONFLICT ..., RETURNING ...). Fails as a defect when a column
 * is not in the catalog: a programming error, never input.
 */
export const insertFromRecordSet = (
  sql: SqlClient.SqlClient,
  types: ColumnTypes,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  suffix = ""
): Statement.Fragment => {
  const columnTypes = types.get(table)
  const columns = Object.keys(rows[0] ?? {})
  const declared = columns.map((column) => {
    const type = columnTypes?.get(column)
    if (type === undefined) throw new Error(`insertFromRecordSet: no column ${table}.${column} in the catalog`)
    return `${quoted(column)} ${type === "jsonb" ? "text" : type}`
  })
  const selected = columns.map((column) =>
    columnTypes?.get(column) === "jsonb" ? `v.${quoted(column)}::jsonb` : `v.${quoted(column)}`
  )
  return sql`INSERT INTO ${sql.literal(quoted(table))} (${sql.literal(columns.map(quoted).join(", "))}) SELECT ${
    sql.literal(selected.join(", "))
  } FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${sql.literal(declared.join(", "))}) ${
    sql.literal(suffix)
  }`
}

/** The rows grouped by their set of columns (in the order first seen): one INSERT per group. */
export const byColumns = (
  rows: ReadonlyArray<Record<string, unknown>>
): ReadonlyArray<ReadonlyArray<Record<string, unknown>>> => {
  const groups = new Map<string, Array<Record<string, unknown>>>()
  for (const row of rows) {
    const signature = Object.keys(row).join(",")
    const group = groups.get(signature)
    if (group === undefined) groups.set(signature, [row])
    else group.push(row)
  }
  return [...groups.values()]
}

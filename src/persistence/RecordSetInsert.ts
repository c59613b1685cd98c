// An INSERT of many rows whose values travel as ONE jsonb parameter (`jsonb_to_recordset`) instead of a parameter per
// value: its SQL text depends only on the table and the columns, so the prepared statement is reused whatever the
// number of rows, and it can stand as one part (a CTE) of a larger statement (persistence/instances/OneStatementCommit.ts).
//
// The record set needs each column's type: they are read from the catalog once (the tables are the migrations' own).
// A jsonb column's value may be a JsonColumn (the JSON the projections serialize: SqlValues.ts), a plain value, or JSON
// text as a string. A JsonColumn's JSON goes into the parameter as it is, and the record set reads the column as jsonb:
// serialized once by the service and parsed once by PostgreSQL — not escaped into a JSON string, unescaped and parsed a
// second time by a cast (−12 % of the commit statements' time in PostgreSQL with one-task instances; docs/scaling.md,
// session 21). A statement whose column also holds a string, or the JSON `null` (read as jsonb it would be SQL NULL,
// not JSON null), reads that column as text and casts it, as before: a string is always escaped, never spliced in.
import { Effect } from "effect"
import type { SqlClient, SqlError, Statement } from "effect/sql"
import { JsonColumn, pgArray } from "./SqlValues.ts"

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
 * The SQL text of an INSERT's parts for a table and its columns, made once per (types, table, columns, jsonb columns
 * read as text), with each column's key as it is written in the parameter.
 */
interface InsertText {
  readonly into: string
  readonly select: string
  readonly declared: string
  readonly columns: ReadonlyArray<{ readonly name: string; readonly key: string; readonly rawJson: boolean }>
}
const insertTexts = new WeakMap<ColumnTypes, Map<string, InsertText>>()

const insertText = (
  types: ColumnTypes,
  table: string,
  columns: ReadonlyArray<string>,
  asText: ReadonlySet<string>
): InsertText => {
  let texts = insertTexts.get(types)
  if (texts === undefined) insertTexts.set(types, texts = new Map())
  const key = `${table}(${columns.join(",")})${[...asText].join(",")}`
  const known = texts.get(key)
  if (known !== undefined) return known
  const columnTypes = types.get(table)
  const typeOf = (column: string) => {
    const type = columnTypes?.get(column)
    if (type === undefined) throw new Error(`insertFromRecordSet: no column ${table}.${column} in the catalog`)
    return type
  }
  // `asText` holds jsonb columns only (textColumns): those are read as text and cast, the other jsonb ones as jsonb.
  const text = {
    into: `${quoted(table)} (${columns.map(quoted).join(", ")})`,
    select: columns.map((column) => (asText.has(column) ? `v.${quoted(column)}::jsonb` : `v.${quoted(column)}`))
      .join(", "),
    declared: columns.map((column) => `${quoted(column)} ${asText.has(column) ? "text" : typeOf(column)}`).join(", "),
    columns: columns.map((column) => ({
      name: column,
      key: JSON.stringify(column),
      rawJson: typeOf(column) === "jsonb" && !asText.has(column)
    }))
  }
  // Tables and their columns are the code's own: a few dozen texts at most.
  if (texts.size < 1_000) texts.set(key, text)
  return text
}

/** The jsonb columns that hold a string or the JSON null in some row: those are read as text and cast. */
const textColumns = (types: ColumnTypes, table: string, rows: ReadonlyArray<Record<string, unknown>>) => {
  const columnTypes = types.get(table)
  const found = new Set<string>()
  for (const row of rows) {
    for (const column in row) {
      const value = row[column]
      const asText = typeof value === "string" || (value instanceof JsonColumn && value.json === "null")
      if (asText && columnTypes?.get(column) === "jsonb") found.add(column)
    }
  }
  return found
}

/** The rows as ONE JSON array, a JsonColumn's JSON written into it as it is where its column is read as jsonb. */
const serialized = (text: InsertText, rows: ReadonlyArray<Record<string, unknown>>): string => {
  let json = "["
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    let fields = ""
    for (const column of text.columns) {
      const value = row[column.name]
      const written = value instanceof JsonColumn
        ? (column.rawJson ? value.json : JSON.stringify(value.json))
        : JSON.stringify(value)
      // as JSON.stringify(rows) did: a value JSON cannot hold (undefined) leaves its column out, which reads as NULL
      if (written === undefined) continue
      fields += fields === "" ? `${column.key}:${written}` : `,${column.key}:${written}`
    }
    json += i === 0 ? `{${fields}}` : `,{${fields}}`
  }
  return `${json}]`
}

/**
 * `INSERT INTO table (columns) SELECT ... FROM jsonb_to_recordset($rows)`, for rows that all have the same columns
 * (the caller groups them so). `suffix` follows it (ON CONFLICT ..., RETURNING ...). Fails as a defect when a column
 * is not in the catalog: a programming error, never input. It runs as it is, or stands as a part of a larger statement.
 */
export const insertFromRecordSet = (
  sql: SqlClient.SqlClient,
  types: ColumnTypes,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  suffix = ""
): Statement.Statement<Record<string, unknown>> => {
  const text = insertText(types, table, Object.keys(rows[0] ?? {}), textColumns(types, table, rows))
  return sql`INSERT INTO ${sql.literal(text.into)} SELECT ${sql.literal(text.select)} FROM jsonb_to_recordset(${
    serialized(text, rows)
  }::jsonb) AS v(${sql.literal(text.declared)}) ${sql.literal(suffix)}`
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

/** The rows written with `insertFromRecordSet`, one statement per set of columns (`byColumns`). */
export const insertRecordSets = (
  sql: SqlClient.SqlClient,
  types: ColumnTypes,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>
): Effect.Effect<void, SqlError.SqlError> =>
  Effect.forEach(byColumns(rows), (group) => insertFromRecordSet(sql, types, table, group), { discard: true })

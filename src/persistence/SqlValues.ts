// Conversions between SQL values and API values, shared by every repository.
import { SqlError } from "effect/sql"

export const isUniqueViolation = (error: unknown): boolean =>
  SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

/** A jsonb column: the driver hands back parsed JSON, or text when the value was written as text. */
export const fromJson = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) : value) as A

export const toJson = (value: unknown): string => JSON.stringify(value)

/**
 * A jsonb column's value in a row written by a record-set insert (persistence/RecordSetInsert.ts), serialized here: the
 * insert writes this JSON into its statement's parameter as it is, where any other string is escaped — so only text
 * JSON.stringify made is ever spliced in (hence the private constructor).
 */
export class JsonColumn {
  readonly json: string
  private constructor(json: string) {
    this.json = json
  }
  /** Undefined for undefined, as toJson: the column is left out of the row (NULL). */
  static of(value: unknown): JsonColumn | undefined {
    const json = JSON.stringify(value) as string | undefined
    return json === undefined ? undefined : new JsonColumn(json)
  }
}
export const jsonColumn = (value: unknown): JsonColumn | undefined => JsonColumn.of(value)

/**
 * A PostgreSQL array literal of text values (cast it: `${pgArray(ids)}::uuid[]`). Statements that join a JSON row set
 * also say `key = ANY(array)`: the planner knows how many keys that is and reads them by index, where from the row
 * set alone (estimated at 100 rows) it would rather scan a small or middle-sized table whole.
 */
export const pgArray = (values: ReadonlyArray<string>): string =>
  `{${values.map((value) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** True for text a uuid column accepts (anything else would fail the whole statement it is cast in). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value)

/** Any JSON value (also a bare string, such as XML text) for a jsonb column, wrapped as { value } so it reads back unambiguously. */
export const storedContent = (content: unknown): string => toJson({ value: content })
export const contentOf = (column: unknown): unknown => fromJson<{ readonly value: unknown }>(column).value

export const countOf = (rows: ReadonlyArray<{ readonly count: unknown }>): number => Number(rows[0]?.count ?? 0)

// Conversions between SQL values and API values, shared by every repository.
import { SqlError } from "effect/sql"

export const isUniqueViolation = (error: unknown): boolean =>
  SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

/** A jsonb column: the driver hands back parsed JSON, or text when the value was written as text. */
export const fromJson = <A>(value: unknown): A => (typeof value === "string" ? JSON.parse(value) : value) as A

export const toJson = (value: unknown): string => JSON.stringify(value)

export const countOf = (rows: ReadonlyArray<{ readonly count: unknown }>): number => Number(rows[0]?.count ?? 0)

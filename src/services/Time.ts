// Time always comes from effect's Clock (tests move it); these are the two forms the service uses.
import { Clock, Effect } from "effect"

export const nowMillis: Effect.Effect<number> = Clock.currentTimeMillis
export const nowIso: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

/** A timestamp read from the database (a Date from timestamptz, or a string) as an ISO 8601 UTC string. */
export const isoFromDb = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()

export const isoOrNull = (
  value: unknown
): string | null => (value === null || value === undefined ? null : isoFromDb(value))

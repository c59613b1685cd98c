// What the database can hold of the values a model or a request sets, checked before they reach it (a value it
// refuses fails the commit that carries it):
//  * a job's retries go to integer columns (jobs.retries, job_failures.retries_left): at most 2^31 − 1;
//  * a due time (a timer, a retry, a lock) goes to a timestamptz, written as JavaScript's toISOString writes it. Both
//    agree on the years 1 to 9999 (UTC) only: PostgreSQL has no year 0, and reads neither the six-digit years
//    toISOString writes past 9999 nor the NaN of a date out of JavaScript's range;
//  * ids and names a model gives that go into indexed text columns (a process or decision id, a job type, a message or
//    signal name, a start event's id): a btree index entry holds at most 2,704 bytes, so a longer one fails the write
//    that carries it — the deploy, or every later start of the process.
export const MAX_JOB_RETRIES = 2_147_483_647

/**
 * The longest indexed id or name, in characters: 255 (Zeebe's and most databases' customary bound) take at most 1,020
 * bytes of UTF-8, so even an index entry holding two of them beside a tenant id fits.
 */
export const MAX_INDEXED_NAME = 255

/**
 * The longest literal message or signal name a model gives: the bound requests have (POST /messages, POST /signals:
 * engine/CorrelationKey.ts, MAX_EVENT_NAME), so a model can wait for every name a request may send.
 */
export const MAX_MODEL_EVENT_NAME = 400

export const EARLIEST_DUE_MILLIS = Date.parse("0001-01-01T00:00:00.000Z")
export const LATEST_DUE_MILLIS = Date.parse("9999-12-31T23:59:59.999Z")

/** The range of due times, as messages name it. */
export const DUE_RANGE = "the years 1 to 9999 (UTC)"

/** Whether an instant can be stored as a due time (finite, within DUE_RANGE). */
export const isSchedulable = (millis: number): boolean =>
  Number.isFinite(millis) && millis >= EARLIEST_DUE_MILLIS && millis <= LATEST_DUE_MILLIS

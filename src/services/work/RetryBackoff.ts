// The delay before a failed job's next attempt under its retry policy: FIXED waits `delay` every time; EXPONENTIAL
// waits delay × multiplier^(attempt − 1), both capped by maxDelay — and never longer than a week, the longest delay a
// worker or a policy may give (schema/Work.ts): uncapped, the exponent soon passes any date there is.
import type { RetryPolicy } from "../../schema/Work.ts"

const MAX_BACKOFF_MILLIS = 7 * 24 * 3_600_000

export const backoffFor = (policy: RetryPolicy, attempt: number): number => {
  const raw = policy.backoff === "FIXED"
    ? policy.delay
    : policy.delay * (policy.multiplier ?? 2) ** Math.max(0, attempt - 1)
  return Math.round(Math.min(raw, policy.maxDelay ?? MAX_BACKOFF_MILLIS, MAX_BACKOFF_MILLIS))
}

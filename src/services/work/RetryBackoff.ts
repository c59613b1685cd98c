// The delay before a failed job's next attempt under its retry policy: FIXED waits `delay` every time; EXPONENTIAL
// waits delay × multiplier^(attempt − 1), both capped by maxDelay.
import type { RetryPolicy } from "../../schema/Work.ts"

export const backoffFor = (policy: RetryPolicy, attempt: number): number => {
  const raw = policy.backoff === "FIXED"
    ? policy.delay
    : policy.delay * (policy.multiplier ?? 2) ** Math.max(0, attempt - 1)
  return Math.round(Math.min(raw, policy.maxDelay ?? Number.MAX_SAFE_INTEGER))
}

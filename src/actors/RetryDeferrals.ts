// Work a background loop could not do — a timer its instance refused or did not answer, an outbox message whose target
// failed — is tried again after a delay that doubles with each failure in a row, from a second up to a minute, not at
// every round: a failure that repeats (a defect in the target, a model past the run budget) costs one try a minute
// instead of several a second, while a passing one (the database restarting) is retried within seconds. Nothing is
// dropped: the work stays in its table. In memory: a restart tries everything again at once.
import { type Cause, Effect } from "effect"

const FIRST_DELAY_MS = 1_000
const MAX_DELAY_MS = 60_000
/** Keys remembered at most (beyond, the memory starts over: everything is tried again at once). */
const MAX_KEPT = 10_000

export interface RetryDeferrals {
  /** The key failed before and its delay has not run out. */
  readonly waiting: (key: string, nowMillis: number) => boolean
  /** The keys whose delay has not run out. */
  readonly waitingKeys: (nowMillis: number) => Array<string>
  /** The key failed (again): the delay before its next try, in ms. */
  readonly failed: (key: string, nowMillis: number) => number
  /** The key's work was done: it is forgotten. */
  readonly succeeded: (key: string) => void
  /** How many keys are remembered as failing. */
  readonly size: () => number
  /**
   * Runs a try of the key's work to its end: done, the key is forgotten; failed, it is deferred and `onFailure` told
   * why and for how long (to log it).
   */
  readonly settle: (
    key: string,
    nowMillis: number,
    onFailure: (cause: Cause.Cause<unknown>, delayMillis: number) => Effect.Effect<void>
  ) => <A, E, R>(attempt: Effect.Effect<A, E, R>) => Effect.Effect<void, never, R>
}

export const makeRetryDeferrals = (): RetryDeferrals => {
  const failing = new Map<string, { readonly until: number; readonly failures: number }>()
  const failed = (key: string, nowMillis: number) => {
    const failures = (failing.get(key)?.failures ?? 0) + 1
    if (failing.size >= MAX_KEPT && !failing.has(key)) failing.clear()
    const delay = Math.min(FIRST_DELAY_MS * 2 ** Math.min(failures - 1, 30), MAX_DELAY_MS)
    failing.set(key, { until: nowMillis + delay, failures })
    return delay
  }
  return {
    waiting: (key, nowMillis) => (failing.get(key)?.until ?? 0) > nowMillis,
    waitingKeys: (nowMillis) => [...failing].flatMap(([key, entry]) => entry.until > nowMillis ? [key] : []),
    failed,
    succeeded: (key) => void failing.delete(key),
    size: () => failing.size,
    settle: (key, nowMillis, onFailure) => (attempt) =>
      Effect.matchCauseEffect(attempt, {
        onSuccess: () => Effect.sync(() => void failing.delete(key)),
        onFailure: (cause) => onFailure(cause, failed(key, nowMillis))
      })
  }
}

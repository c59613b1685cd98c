// effect's Clock running in real time plus an offset the test moves forward: the app keeps working (sleeps and
// polling are real) while "now" can jump past a token expiry or an invitation deadline without waiting.
import { Clock, Duration, Effect } from "effect"

export interface AdjustableClock extends Clock.Clock {
  /** Moves "now" forward. */
  readonly advance: (by: Duration.Input) => void
  readonly nowMillis: () => number
}

export const makeAdjustableClock = (): AdjustableClock => {
  const base = Effect.runSync(Clock.clockWith(Effect.succeed))
  let offsetMillis = 0
  const millis = () => base.currentTimeMillisUnsafe() + offsetMillis
  const nanos = () => base.currentTimeNanosUnsafe() + BigInt(offsetMillis) * 1_000_000n
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => base.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: base.monotonicTimeNanos,
    sleep: (duration) => base.sleep(duration),
    advance: (by) => {
      offsetMillis += Duration.toMillis(Duration.fromInputUnsafe(by))
    },
    nowMillis: millis
  }
}

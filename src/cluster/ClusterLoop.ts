// The one shape of the background loops (timers, outbox, batch operations, connectors, message recovery): a round of
// work repeated on a fixed spacing, run as a cluster singleton — on exactly one runner of the cluster at a time, and
// moved to another runner when its owner stops or dies. A round never fails (its failures are logged and the next
// round tries again) and is bounded in time, so no entity that does not answer can stop the loop for good.
import { Duration, Effect, Schedule, Semaphore } from "effect"
import type { Scope } from "effect"
import { Sharding } from "effect/cluster"

export const ROUND_TIMEOUT = Duration.seconds(30)

export const runClusterLoop = <R>(
  name: string,
  every: Duration.Input,
  round: Effect.Effect<unknown, unknown, R>
): Effect.Effect<void, never, Sharding.Sharding | Scope.Scope | R> =>
  Effect.flatMap(Sharding.Sharding, (sharding) =>
    sharding.registerSingleton(
      name,
      Effect.repeat(
        round.pipe(
          Effect.timeout(ROUND_TIMEOUT),
          Effect.catchCause((cause) => Effect.logWarning(`${name}: round failed; the next one tries again`, cause))
        ),
        Schedule.spaced(every)
      ).pipe(Effect.asVoid)
    ))

/** A loop that works off what is pending (the outbox, batch operations), woken besides its spacing. */
export interface PendingWork {
  /** Works off what is pending now, in the background (after a write that left work). */
  readonly wake: Effect.Effect<void>
  /** Works off what is pending and waits for it (tests, shutdown). */
  readonly flush: Effect.Effect<void>
}

/** The pass runs once at a time, whoever starts it (the loop, a wake, a flush); a failed pass is logged. */
export const runPendingWork = (
  name: string,
  label: string,
  pass: Effect.Effect<void, unknown>
): Effect.Effect<PendingWork, never, Sharding.Sharding | Scope.Scope> =>
  Effect.gen(function*() {
    const semaphore = yield* Semaphore.make(1)
    const flush = semaphore.withPermits(1)(pass).pipe(
      Effect.catchCause((cause) => Effect.logWarning(`${label} failed; retried later`, cause))
    )
    yield* runClusterLoop(name, "1 second", flush)
    return { wake: Effect.asVoid(Effect.forkDetach(flush)), flush }
  })

// The one shape of the background loops (timers, outbox, batch operations, connectors, message recovery): a round of
// work repeated on a fixed spacing, run as a cluster singleton — on exactly one runner of the cluster at a time, and
// moved to another runner when its owner stops or dies. A round never fails (its failures are logged and the next
// round tries again) and is bounded in time, so no entity that does not answer can stop the loop for good.
import { Duration, Effect, Schedule } from "effect"
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

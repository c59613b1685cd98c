// Concurrent work over the items of a request, without a fiber for the common case of one item. `Effect.forEach` with
// `concurrency` forks a fiber per item even when there is only one (a publish delivered to its one waiting instance),
// and `Effect.all` with `concurrency` one per effect: a fiber's creation, scheduling and join, two per correlating
// publish, for nothing (their cost is within what bench:paired can resolve, ~5 %; docs/scaling.md, session 23).
import { Effect } from "effect"

/** `Effect.forEach` with `concurrency`; zero or one item runs in the caller's fiber. */
export const forEachConcurrently = <A, B, E, R>(
  items: ReadonlyArray<A>,
  f: (item: A, index: number) => Effect.Effect<B, E, R>,
  concurrency: number
): Effect.Effect<Array<B>, E, R> =>
  items.length <= 1 ? Effect.forEach(items, f) : Effect.forEach(items, f, { concurrency })

/** Both effects, concurrently unless one of them has nothing to do (`idle`): then one after the other, no fiber. */
export const bothConcurrently = <A, EA, RA, B, EB, RB>(
  first: Effect.Effect<A, EA, RA>,
  second: Effect.Effect<B, EB, RB>,
  idle: { readonly first: boolean; readonly second: boolean }
): Effect.Effect<[A, B], EA | EB, RA | RB> =>
  idle.first || idle.second ? Effect.all([first, second]) : Effect.all([first, second], { concurrency: 2 })

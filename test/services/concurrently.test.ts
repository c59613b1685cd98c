// forEachConcurrently / bothConcurrently: one item (or one side with nothing to do) runs in the caller's fiber, no
// fiber forked; several run at once, as Effect.forEach / Effect.all with concurrency do.
import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { bothConcurrently, forEachConcurrently } from "../../src/services/Concurrently.ts"

const currentFiberId = Effect.sync(() => Fiber.getCurrent()!.id)

/** `count` effects that finish only once all of them have started: they complete only if run at once. */
const rendezvous = (count: number) =>
  Effect.map(Deferred.make<void>(), (allStarted) => {
    let started = 0
    return Effect.suspend(() => {
      started += 1
      return started === count ? Deferred.succeed(allStarted, undefined) : Deferred.await(allStarted)
    })
  })

describe("concurrent work over a request's items", () => {
  it("runs a single item in the caller's fiber", async () => {
    const [caller, items] = await Effect.runPromise(
      Effect.all([currentFiberId, forEachConcurrently(["only"], () => currentFiberId, 16)])
    )
    expect(items).toEqual([caller])
  })

  it("runs several items at once, answering in their order", async () => {
    const answers = await Effect.runPromise(
      Effect.flatMap(
        rendezvous(3),
        (meet) =>
          forEachConcurrently(["a", "b", "c"], (item) => Effect.as(meet, item), 16).pipe(
            Effect.timeoutOrElse({
              duration: "5 seconds",
              orElse: () => Effect.succeed(["run one after another"])
            })
          )
      )
    )
    expect(answers).toEqual(["a", "b", "c"])
  })

  it("runs both sides at once, or in the caller's fiber when one has nothing to do", async () => {
    const both = await Effect.runPromise(
      Effect.flatMap(
        rendezvous(2),
        (meet) =>
          bothConcurrently(Effect.as(meet, 1), Effect.as(meet, 2), { first: false, second: false }).pipe(
            Effect.timeoutOrElse({
              duration: "5 seconds",
              orElse: () => Effect.succeed("run one after another")
            })
          )
      )
    )
    expect(both).toEqual([1, 2])
    const [caller, [first, second]] = await Effect.runPromise(Effect.all([
      currentFiberId,
      bothConcurrently(currentFiberId, currentFiberId, { first: false, second: true })
    ]))
    expect([first, second]).toEqual([caller, caller])
  })
})

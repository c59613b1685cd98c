// A job stream's standing listener (services/work/JobAvailability.ts): several jobs may be committed leased to it at once,
// up to its capacity; streams of a type take turns; an announcement or a quiet wait sends it looking.
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import type { Job } from "../../src/schema/Work.ts"
import { inProcess } from "../../src/services/work/JobAvailability.ts"

const TENANT = "tenant-a"
const taker = (worker: string) => ({ worker, lockMillis: 60_000, audit: undefined })
const job = (id: string) => ({ id }) as unknown as Job

const run = <A>(effect: Effect.Effect<A, never, never>) => Effect.runPromise(effect)

describe("job stream listener", () => {
  it("takes jobs up to its capacity, then leaves the next ones to be announced", () =>
    run(Effect.scoped(Effect.gen(function*() {
      const availability = inProcess()
      const stream = yield* availability.listenStream(TENANT, "work", taker("s"), 3)
      const reserved = [1, 2, 3].map(() => availability.reserve(TENANT, "work"))
      expect(reserved.every((one) => one?.worker === "s")).toBe(true)
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      reserved.forEach((one, index) => one!.deliver(job(`j${index}`)))
      expect(yield* stream.next(1000)).toEqual({ jobs: [job("j0"), job("j1"), job("j2")], look: false })
      // written out: room again; a released reservation gives its room back too
      const again = availability.reserve(TENANT, "work")!
      again.release()
      expect([1, 2, 3].map(() => availability.reserve(TENANT, "work")?.worker)).toEqual(["s", "s", "s"])
      // another tenant's jobs are not its
      expect(availability.reserve("tenant-b", "work")).toBeUndefined()
    }))))

  it("streams of a type take turns, and come before long polls", () =>
    run(Effect.scoped(Effect.gen(function*() {
      const availability = inProcess()
      const poll = yield* availability.listen(TENANT, "work", taker("poll"))
      yield* availability.listenStream(TENANT, "work", taker("first"), 10)
      yield* availability.listenStream(TENANT, "work", taker("second"), 10)
      const polling = yield* Effect.forkChild(poll.wait(60_000))
      yield* Effect.yieldNow
      expect([1, 2, 3, 4].map(() => availability.reserve(TENANT, "work")?.worker)).toEqual([
        "first",
        "second",
        "first",
        "second"
      ])
      yield* Fiber.interrupt(polling)
    }))))

  it("waits for a delivery; an announcement or the time running out answers 'look'", () =>
    run(Effect.scoped(
      Effect.gen(function*() {
        const availability = inProcess()
        const stream = yield* availability.listenStream(TENANT, "work", taker("s"), 5)
        const waiting = yield* Effect.forkChild(stream.next(1000))
        yield* Effect.yieldNow
        availability.reserve(TENANT, "work")!.deliver(job("pushed"))
        expect(yield* Fiber.join(waiting)).toEqual({ jobs: [job("pushed")], look: false })

        const announced = yield* Effect.forkChild(stream.next(1000))
        yield* Effect.yieldNow
        yield* availability.announce(TENANT, ["work"])
        expect(yield* Fiber.join(announced)).toEqual({ jobs: [], look: true })

        const quiet = yield* Effect.forkChild(stream.next(1000))
        yield* Effect.yieldNow
        yield* TestClock.adjust(1000)
        expect(yield* Fiber.join(quiet)).toEqual({ jobs: [], look: true })
        // an announcement made while the stream was not waiting is kept for its next ask
        yield* availability.announce(TENANT, ["work"])
        expect(yield* stream.next(1000)).toEqual({ jobs: [], look: true })
      }).pipe(Effect.provide(TestClock.layer()))
    )))

  it("stops taking jobs when the stream ends", async () => {
    const availability = inProcess()
    await run(Effect.scoped(Effect.asVoid(availability.listenStream(TENANT, "work", taker("s"), 5))))
    expect(availability.reserve(TENANT, "work")).toBeUndefined()
  })
})

// A long-polling activation as a taker of pushed jobs (services/work/LongPollListeners.ts): jobs committed while its first
// one is being committed join its answer, up to its capacity (maxJobsToActivate); once one of its commits has ended it
// takes no more and answers when the rest have; a job whose commit failed is not in the answer. While it looks in the
// database it is handed jobs only within the room its look leaves, and it answers those with what the look found.
import { Effect, Fiber, type Scope } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import type { Job } from "../../src/schema/Work.ts"
import { inProcess } from "../../src/services/work/JobAvailability.ts"

const TENANT = "tenant-a"
const taker = (worker: string) => ({ worker, lockMillis: 60_000, audit: undefined })
const job = (id: string) => ({ id }) as unknown as Job

const run = <A>(effect: Effect.Effect<A, never, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(effect.pipe(Effect.provide(TestClock.layer()))))

describe("long-poll listener", () => {
  it("takes the jobs reserved before its first is handed over, up to its capacity, in one answer", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const { wait } = yield* availability.listen(TENANT, "work", taker("poll"), 3)
      const answer = yield* Effect.forkChild(wait(60_000))
      yield* Effect.yieldNow
      const reserved = [1, 2, 3].map(() => availability.reserve(TENANT, "work"))
      expect(reserved.map((one) => one?.worker)).toEqual(["poll", "poll", "poll"])
      // full: the next job is announced instead
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      reserved[1]!.deliver(job("b"))
      reserved[0]!.release()
      // one commit has ended: it answers with what the others bring, and takes no more meanwhile
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      expect(answer.pollUnsafe()).toBeUndefined()
      reserved[2]!.deliver(job("c"))
      expect(yield* Fiber.join(answer)).toEqual([job("b"), job("c")])
    })))

  it("a waiting long poll is chosen before one that already has a job coming", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const first = yield* availability.listen(TENANT, "work", taker("first"), 10)
      const second = yield* availability.listen(TENANT, "work", taker("second"), 10)
      const answers = yield* Effect.forkChild(Effect.all([first.wait(60_000), second.wait(60_000)], { concurrency: 2 }))
      yield* Effect.yieldNow
      const reserved = [1, 2, 3].map(() => availability.reserve(TENANT, "work")!)
      expect(reserved.map((one) => one.worker)).toEqual(["first", "second", "first"])
      reserved.forEach((one, index) => one.deliver(job(`j${index}`)))
      expect(yield* Fiber.join(answers)).toEqual([[job("j0"), job("j2")], [job("j1")]])
    })))

  it("answers nothing when every commit handing it a job failed, also after its time ran out", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const { wait } = yield* availability.listen(TENANT, "work", taker("poll"), 5)
      const answer = yield* Effect.forkChild(wait(1000))
      yield* Effect.yieldNow
      const reserved = availability.reserve(TENANT, "work")!
      yield* TestClock.adjust(5000)
      // the commit is still under way: the answer waits for it
      expect(answer.pollUnsafe()).toBeUndefined()
      reserved.release()
      expect(yield* Fiber.join(answer)).toBeUndefined()
    })))

  it("a long poll without a taker is handed nothing; an announcement wakes it", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const plain = yield* availability.listen(TENANT, "work")
      const waiting = yield* Effect.forkChild(plain.wait(60_000))
      yield* Effect.yieldNow
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      yield* availability.announce(TENANT, ["work"])
      expect(yield* Fiber.join(waiting)).toBeUndefined()
    })))

  it("while it looks, it is handed jobs only within the room its look leaves", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const poll = yield* availability.listen(TENANT, "work", taker("poll"), 5)
      // before its look has picked its candidates: nothing
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      // its look holds 3 jobs: room for 2 more
      poll.budget.holding(3)
      const reserved = [1, 2].map(() => availability.reserve(TENANT, "work"))
      expect(reserved.map((one) => one?.worker)).toEqual(["poll", "poll"])
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      expect(poll.budget.handed()).toBe(2)
      // the look found jobs: it answers them with the two, once their commits have ended
      const collected = yield* Effect.forkChild(poll.collect)
      yield* Effect.yieldNow
      reserved[0]!.deliver(job("a"))
      expect(collected.pollUnsafe()).toBeUndefined()
      reserved[1]!.deliver(job("b"))
      expect(yield* Fiber.join(collected)).toEqual([job("a"), job("b")])
    })))

  it("a look that found nothing waits with the jobs handed while it looked", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const poll = yield* availability.listen(TENANT, "work", taker("poll"), 5)
      poll.budget.holding(4)
      const reserved = availability.reserve(TENANT, "work")!
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      // picking again, or done: nothing more
      poll.budget.picking(0)
      poll.budget.holding(5)
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      // an announcement does not wake a long poll that has a job coming
      yield* availability.announce(TENANT, ["work"])
      const waiting = yield* Effect.forkChild(poll.wait(1000))
      yield* Effect.yieldNow
      reserved.deliver(job("pushed"))
      expect(yield* Fiber.join(waiting)).toEqual([job("pushed")])
    })))

  it("a look that found jobs and was handed none answers nothing more; an announcement wakes an idle look", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const poll = yield* availability.listen(TENANT, "work", taker("poll"), 5)
      poll.budget.holding(2)
      expect(yield* poll.collect).toEqual([])
      expect(availability.reserve(TENANT, "work")).toBeUndefined()
      const other = yield* availability.listen(TENANT, "work", taker("other"), 5)
      yield* availability.announce(TENANT, ["work"])
      expect(yield* other.wait(1000)).toBeUndefined()
    })))

  it("an announcement of n jobs wakes n waiting long polls, and every look under way; the others stay for pushes", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const looking = yield* availability.listen(TENANT, "work", taker("looking"), 5)
      const polls = yield* Effect.forEach(
        ["a", "b", "c"],
        (name) => availability.listen(TENANT, "work", taker(name), 5)
      )
      const waits = yield* Effect.forEach(polls, (poll) => Effect.forkChild(poll.wait(60_000)))
      yield* Effect.yieldNow
      yield* availability.announce(TENANT, ["work", "other", "work"])
      yield* Effect.yieldNow
      // two jobs of the type: two of the waiting polls look again; the third still waits, and takes the next job
      expect(waits.map((fiber) => fiber.pollUnsafe() === undefined)).toEqual([false, false, true])
      expect(yield* Fiber.join(waits[0]!)).toBeUndefined()
      const reserved = availability.reserve(TENANT, "work")!
      expect(reserved.worker).toBe("c")
      reserved.deliver(job("next"))
      expect(yield* Fiber.join(waits[2]!)).toEqual([job("next")])
      // the look under way was told too: it may have begun before the jobs were committed, and it looks again if it
      // finds nothing
      expect(yield* looking.wait(60_000)).toBeUndefined()
    })))
})

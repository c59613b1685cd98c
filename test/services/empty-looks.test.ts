// A long poll may skip its look in the database for a moment after a look of its type found every job there was
// (services/work/EmptyLooks.ts) — never after a job of the type was announced, and never for long.
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import type { Job } from "../../src/schema/Work.ts"
import { EMPTY_LOOK_MILLIS, makeEmptyLooks } from "../../src/services/work/EmptyLooks.ts"
import { inProcess } from "../../src/services/work/JobAvailability.ts"

const TENANT = "tenant-a"
const taker = (worker: string) => ({ worker, lockMillis: 60_000, audit: undefined })

describe("empty looks", () => {
  it("spare the next looks of the type for a moment after a look found it exhausted", () => {
    const looks = makeEmptyLooks()
    const mark = looks.mark("work")
    expect(looks.emptyFor("work", 1_000)).toBe(0)
    looks.exhausted("work", mark, 1_000)
    expect(looks.emptyFor("work", 1_000)).toBe(EMPTY_LOOK_MILLIS)
    expect(looks.emptyFor("work", 1_100)).toBe(EMPTY_LOOK_MILLIS - 100)
    expect(looks.emptyFor("work", 1_000 + EMPTY_LOOK_MILLIS)).toBe(0)
    // another type, or another tenant's key, is not concerned
    expect(looks.emptyFor("other", 1_000)).toBe(0)
  })

  it("never after a job of the type was announced, also while the look ran", () => {
    const looks = makeEmptyLooks()
    const before = looks.mark("work")
    looks.exhausted("work", before, 1_000)
    looks.announced("work")
    expect(looks.emptyFor("work", 1_001)).toBe(0)
    // a look that began before an announcement does not count: it may have missed the announced job
    const during = looks.mark("work")
    looks.announced("work")
    looks.exhausted("work", during, 1_002)
    expect(looks.emptyFor("work", 1_003)).toBe(0)
    // one that began after it does
    looks.exhausted("work", looks.mark("work"), 1_004)
    expect(looks.emptyFor("work", 1_005)).toBe(EMPTY_LOOK_MILLIS - 1)
  })

  it("a long poll listening after an empty look is told so, and still takes jobs pushed or announced", () =>
    Effect.runPromise(
      Effect.scoped(Effect.gen(function*() {
        const availability = inProcess()
        const first = yield* availability.listen(TENANT, "work", taker("first"), 5)
        expect(first.emptyFor).toBe(0)
        yield* first.looked(true)
        const second = yield* availability.listen(TENANT, "work", taker("second"), 5)
        expect(second.emptyFor).toBe(EMPTY_LOOK_MILLIS)
        const waiting = yield* Effect.forkChild(second.wait(second.emptyFor))
        yield* Effect.yieldNow
        const reserved = availability.reserve(TENANT, "work")!
        expect(reserved.worker).toBe("second")
        reserved.deliver({ id: "pushed" } as unknown as Job)
        expect(yield* Fiber.join(waiting)).toEqual([{ id: "pushed" }])
        // an announcement ends the mark: the next long poll looks
        availability.announce(TENANT, ["work"]).pipe(Effect.runSync)
        expect((yield* availability.listen(TENANT, "work", taker("third"), 5)).emptyFor).toBe(0)
        // and the mark ends with its time
        yield* (yield* availability.listen(TENANT, "work", taker("fourth"), 5)).looked(true)
        expect((yield* availability.listen(TENANT, "work", taker("fifth"), 5)).emptyFor).toBe(EMPTY_LOOK_MILLIS)
        yield* TestClock.adjust(EMPTY_LOOK_MILLIS)
        expect((yield* availability.listen(TENANT, "work", taker("sixth"), 5)).emptyFor).toBe(0)
      })).pipe(Effect.provide(TestClock.layer()))
    ))
})

// Background work that failed is tried again after a delay that doubles from a second up to a minute
// (actors/RetryDeferrals.ts), and is forgotten once done.
import { describe, expect, it } from "vitest"
import { makeRetryDeferrals } from "../../src/actors/RetryDeferrals.ts"

describe("retry deferrals", () => {
  it("defer a failing key 1, 2, 4 ... 60 s, leave others alone, and forget a key that succeeded", () => {
    const deferrals = makeRetryDeferrals()
    const delays = Array.from({ length: 9 }, () => deferrals.failed("timer-1", 0))
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
    expect(deferrals.waiting("timer-1", 59_999)).toBe(true)
    expect(deferrals.waiting("timer-1", 60_000)).toBe(false)
    expect(deferrals.waiting("timer-2", 0)).toBe(false)
    expect(deferrals.waitingKeys(30_000)).toEqual(["timer-1"])
    deferrals.succeeded("timer-1")
    expect(deferrals.size()).toBe(0)
    // after a success the delays start over
    expect(deferrals.failed("timer-1", 100_000)).toBe(1_000)
  })

  it("keep at most 10,000 keys: beyond, the memory starts over", () => {
    const deferrals = makeRetryDeferrals()
    for (let i = 0; i < 10_000; i++) deferrals.failed(`key-${i}`, 0)
    expect(deferrals.size()).toBe(10_000)
    deferrals.failed("one-more", 0)
    expect(deferrals.size()).toBe(1)
  })
})

// Timer cycles: ISO 8601 repeating intervals and cron expressions, the first occurrence and the next ones, and the
// catch-up rule (missed occurrences collapse into one fire).
import { describe, expect, it } from "vitest"
import { dueAt, nextCycleDue } from "../../src/bpmn/Timer.ts"
import { firstOccurrence, nextOccurrence, parseCycle } from "../../src/bpmn/TimerCycle.ts"

const at = (iso: string) => Date.parse(iso)
const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString())

describe("timer cycles", () => {
  it("reads repeating intervals and refuses what is neither that nor cron", () => {
    expect(parseCycle("R3/PT10S")).toMatchObject({ kind: "repeat", repetitions: 3, start: null, interval: "PT10S" })
    expect(parseCycle("R/P1D")).toMatchObject({ kind: "repeat", repetitions: null })
    expect(parseCycle("R2/2026-01-01T09:00:00Z/PT1H")).toMatchObject({
      repetitions: 2,
      start: at("2026-01-01T09:00:00Z")
    })
    for (const bad of ["R0/PT1S", "R3/nonsense", "PT10S", "* * *", "61 * * * *", "R3/PT0S"]) {
      expect(parseCycle(bad), bad).toBeUndefined()
    }
  })

  it("counts R<n> and continues from the last due time", () => {
    const cycle = parseCycle("R3/PT10S")!
    const now = at("2026-03-01T10:00:00Z")
    const first = firstOccurrence(cycle, now)!
    expect(iso(first)).toBe("2026-03-01T10:00:10.000Z")
    const second = nextOccurrence(cycle, first, first, 1)!
    expect(iso(second)).toBe("2026-03-01T10:00:20.000Z")
    expect(iso(nextOccurrence(cycle, second, second, 2))).toBe("2026-03-01T10:00:30.000Z")
    expect(nextOccurrence(cycle, second + 10_000, second + 10_000, 3)).toBeNull()
  })

  it("collapses missed occurrences into one fire (catch-up), also for calendar intervals", () => {
    const cycle = parseCycle("R/PT1M")!
    const lastDue = at("2026-03-01T10:00:00Z")
    const afterDowntime = at("2026-03-01T12:30:30Z")
    expect(iso(nextOccurrence(cycle, lastDue, afterDowntime, 1))).toBe("2026-03-01T12:31:00.000Z")
    const monthly = parseCycle("R/P1M")!
    expect(iso(nextOccurrence(monthly, at("2026-01-15T00:00:00Z"), at("2026-05-20T00:00:00Z"), 1))).toBe(
      "2026-06-15T00:00:00.000Z"
    )
    const started = parseCycle("R5/2026-01-01T00:00:00Z/P1D")!
    expect(iso(firstOccurrence(started, at("2026-01-03T12:00:00Z")))).toBe("2026-01-04T00:00:00.000Z")
  })

  it("reads cron expressions (with or without seconds, names, ranges, steps), in UTC", () => {
    const workdays = parseCycle("0 0 9 * * MON-FRI")!
    // Saturday 2026-03-07 -> Monday 2026-03-09 09:00
    expect(iso(firstOccurrence(workdays, at("2026-03-07T12:00:00Z")))).toBe("2026-03-09T09:00:00.000Z")
    const everyQuarterHour = parseCycle("*/15 * * * *")!
    expect(iso(firstOccurrence(everyQuarterHour, at("2026-03-07T12:07:00Z")))).toBe("2026-03-07T12:15:00.000Z")
    const firstOfMonth = parseCycle("0 30 6 1 JAN,JUL ?")!
    expect(iso(firstOccurrence(firstOfMonth, at("2026-03-07T12:00:00Z")))).toBe("2026-07-01T06:30:00.000Z")
    // catch-up for cron: the next match after now
    expect(iso(nextOccurrence(everyQuarterHour, at("2026-03-07T12:15:00Z"), at("2026-03-07T15:01:00Z"), 1))).toBe(
      "2026-03-07T15:15:00.000Z"
    )
  })

  it("ends a cycle whose next occurrence falls past 9999, and refuses a first one out there", () => {
    const cycle = { kind: "cycle", expression: "R/P3000Y" } as const
    const now = at("2026-03-01T10:00:00Z")
    const first = dueAt(cycle, now, {})
    expect(first).toEqual({ ok: true, dueAt: at("5026-03-01T10:00:00Z") })
    const second = nextCycleDue(cycle, at("5026-03-01T10:00:00Z"), at("5026-03-01T10:00:00Z"), 1, {})
    expect(iso(second)).toBe("8026-03-01T10:00:00.000Z")
    expect(nextCycleDue(cycle, second!, second!, 2, {})).toBeNull()
    expect(dueAt({ kind: "cycle", expression: "R/P8000Y" }, now, {})).toMatchObject({ ok: false })
  })

  it("refuses a cycle repeating more often than once a second, and ends one whose FEEL comes to that", () => {
    const now = at("2026-03-01T10:00:00Z")
    expect(dueAt({ kind: "cycle", expression: "R/PT0.001S" }, now, {})).toMatchObject({
      ok: false,
      message: expect.stringMatching(/at least 1 second/)
    })
    expect(dueAt({ kind: "cycle", expression: "R/PT1S" }, now, {})).toEqual({ ok: true, dueAt: now + 1000 })
    const computed = { kind: "cycle", expression: "= c" } as const
    expect(nextCycleDue(computed, now, now, 1, { c: "R/PT1S" })).toBe(now + 1000)
    expect(nextCycleDue(computed, now, now, 1, { c: "R/PT0.2S" })).toBeNull()
    // deployed before the bound: its next fire does not come
    expect(nextCycleDue({ kind: "cycle", expression: "R/PT0.25S" }, now, now, 1, {})).toBeNull()
  })
})

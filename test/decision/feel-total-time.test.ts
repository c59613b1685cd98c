// Many evaluations of one piece of work share a time budget (FeelBudget.ts withTotalFeelTime): past it the work stops
// with FeelTotalTimeExceeded, which no evaluation turns into a value of its own.
import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/bpmn/Expressions.ts"
import { FeelTotalTimeExceeded, withTotalFeelTime } from "../../src/decision/feel/FeelBudget.ts"

const busyFor = (millis: number) => {
  const until = performance.now() + millis
  while (performance.now() <= until);
}

describe("a total FEEL time", () => {
  it("stops the work once its time has passed, at the next evaluation", () => {
    expect(() =>
      withTotalFeelTime(1, () => {
        expect(evaluateFeel("= 1 + 1", {})).toEqual({ ok: true, value: 2 })
        busyFor(2)
        return evaluateFeel("= 1 + 1", {})
      })
    ).toThrow(FeelTotalTimeExceeded)
  })

  it("stops an evaluation under way once the time has passed", () => {
    expect(() => withTotalFeelTime(5, () => evaluateFeel("= count(for i in 1..900000 return i)", {}))).toThrow(
      FeelTotalTimeExceeded
    )
  })

  it("leaves evaluations outside it alone, and a nested one keeps the outer time", () => {
    expect(evaluateFeel("= 2 * 3", {})).toEqual({ ok: true, value: 6 })
    expect(() => withTotalFeelTime(1, () => withTotalFeelTime(60_000, () => (busyFor(2), evaluateFeel("= 1", {})))))
      .toThrow(FeelTotalTimeExceeded)
  })
})

// Durations scaled and divided, and date ± days-and-time duration (DMN 1.5 §10.3.2.3): issue 13's engine gaps.
import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/decision/feel/Feel.ts"

const value = (e: string) => {
  const r = evaluateFeel(e, {})
  return r._tag === "FeelOk" ? r.value : r
}

describe("duration arithmetic", () => {
  it("scales days-and-time durations exactly, either side of the number", () => {
    expect(value(`duration("P1DT2H") * 2`)).toBe("P2DT4H")
    expect(value(`2 * duration("P1DT2H")`)).toBe("P2DT4H")
    expect(value(`duration("P2D") * 1.5`)).toBe("P3D")
    expect(value(`duration("-PT1.5S") * 3`)).toBe("-PT4.5S")
    expect(value(`duration("PT0.000000001S") * 1000000000`)).toBe("PT1S")
    expect(value(`duration("P2D") / 2`)).toBe("P1D")
    expect(value(`duration("PT1H") / 7`)).toBe("PT8M34.285714285S")
  })

  it("scales years-and-months durations in whole months, truncating toward zero", () => {
    expect(value(`duration("P1Y2M") * 3`)).toBe("P3Y6M")
    expect(value(`3 * duration("P1Y")`)).toBe("P3Y")
    expect(value(`duration("P1Y") / 2`)).toBe("P6M")
    expect(value(`duration("P1Y1M") * -1.5`)).toBe("-P1Y7M")
  })

  it("divides a duration by one of the same kind into a number; by zero or across kinds is null", () => {
    expect(value(`duration("P2D") / duration("PT12H")`)).toBe(4)
    expect(value(`duration("P2Y") / duration("P6M")`)).toBe(4)
    expect(value(`duration("P2D") / 0`)).toBeNull()
    expect(value(`duration("P1D") / duration("PT0S")`)).toBeNull()
    expect(value(`duration("P1Y") / duration("P1D")`)).toBeNull()
  })

  it("date ± days-and-time duration is a date", () => {
    expect(value(`date("2020-01-01") + duration("PT25H")`)).toBe("2020-01-02")
    expect(value(`duration("PT25H") + date("2020-01-01")`)).toBe("2020-01-02")
    expect(value(`date("2020-01-01") - duration("P1DT1H")`)).toBe("2019-12-30")
    expect(value(`date("2020-01-01") - duration("PT1S")`)).toBe("2019-12-31")
    expect(value(`date("2020-01-31") + duration("P1M")`)).toBe("2020-02-29")
  })
})

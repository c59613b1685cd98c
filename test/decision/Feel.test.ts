import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/decision/feel/Feel.ts"
import { listFeelFunctions } from "../../src/decision/feel/FeelFunctions.ts"
import { fromJson } from "../../src/decision/feel/FeelJson.ts"

const value = (e: string, ctx: Record<string, unknown> = {}) => {
  const r = evaluateFeel(e, ctx)
  return r._tag === "FeelOk" ? r.value : r
}

describe("FEEL", () => {
  it("arithmetic", () => {
    expect(value("1 + 2 * 3")).toBe(7)
    expect(value("10 / 4")).toBe(2.5)
  })
  it("fromAi (Camunda's AI-agent tool parameters) is the value itself, with or without its description", () => {
    expect(value("fromAi(toolCall.city)", { toolCall: { city: "Lyon" } })).toBe("Lyon")
    expect(value("fromAi(toolCall.days, \"how many days\", \"number\")", { toolCall: { days: 3 } })).toBe(3)
    expect(value("fromAi(toolCall.missing, \"absent\")", { toolCall: {} })).toBe(null)
  })
  it("null propagation", () => {
    expect(value("1 + null")).toBe(null)
    expect(value("x * 2", { x: null })).toBe(null)
  })
  it("dates and durations as ISO strings", () => {
    expect(value("date(\"2024-02-28\") + duration(\"P1D\")")).toBe("2024-02-29")
    expect(value("date(\"2024-03-01\") - date(\"2024-02-01\")")).toBe("P29D")
  })
  it("years and months duration drops the part of a month left over", () => {
    expect(value("years and months duration(date(\"2020-01-15\"), date(\"2021-03-01\"))")).toBe("P1Y1M")
    expect(value("years and months duration(date(\"2021-03-01\"), date(\"2020-01-15\"))")).toBe("-P1Y1M")
  })
  it("range() reads a range literal", () => {
    expect(value("2 in range(\"[1..3]\")")).toBe(true)
    expect(value("range(\"not a range\")")).toBe(null)
  })
  it("typed JSON inputs become temporal values", () => {
    expect(value("d + duration(\"P1D\")", { d: fromJson("2020-12-31", "date") })).toBe("2021-01-01")
  })
  it("syntax errors carry a position", () => {
    const r = evaluateFeel("1 + (2 *", {})
    expect(r).toMatchObject({ _tag: "FeelSyntaxError" })
    if (r._tag === "FeelSyntaxError") expect(r.position.from).toBeGreaterThanOrEqual(0)
  })
  it("lists built-ins with parameter names", () => {
    expect(listFeelFunctions().find((f) => f.name === "substring")?.parameters).toEqual([
      "string",
      "start position",
      "length"
    ])
  })

  it("a unary `= x` is the one-point range, distinct from the interval [x..x]", () => {
    expect(value("(=10).start included")).toBe(true)
    expect(value("(=10).end")).toBe(10)
    expect(value("5 in (=5)")).toBe(true)
    expect(value("(=10) = (=10)")).toBe(true)
    expect(value("(=10) = [10..10]")).toBe(false)
    expect(value("(!=10)")).toBeNull()
  })

  it("what the spec leaves undefined is null: zoned minus local date-time, time ± years-and-months", () => {
    expect(value(`date and time("2020-01-01T10:00:00Z") - date and time("2020-01-01T10:00:00")`)).toBeNull()
    expect(value(`date and time("2020-01-01T12:00:00Z") - date and time("2020-01-01T10:00:00Z")`)).toBe("PT2H")
    expect(value(`time("10:00:00") + duration("P1Y")`)).toBeNull()
    expect(value(`duration("P1M") + time("10:00:00")`)).toBeNull()
    expect(value(`time("10:00:00") + duration("PT1H")`)).toBe("11:00:00")
  })

  it("24:00:00 is the end of the day; time offsets keep seconds and stay within ±18:00", () => {
    expect(value(`date and time("2020-02-28T24:00:00+01:00")`)).toBe("2020-02-29T00:00:00+01:00")
    expect(value(`date and time("2019-02-28T24:00:00")`)).toBe("2019-03-01T00:00:00")
    expect(value(`date and time("2020-12-31T24:00:00Z")`)).toBe("2021-01-01T00:00:00Z")
    expect(value(`time("24:00:00Z")`)).toBe("00:00:00Z")
    expect(value(`time("24:00:01")`)).toBeNull()
    expect(value(`time("10:00:00+02:45:55")`)).toBe("10:00:00+02:45:55")
    expect(value(`time("10:00:00+18:00")`)).toBe("10:00:00+18:00")
    expect(value(`time("10:00:00+19:00")`)).toBeNull()
    expect(value(`time("10:00:00-18:00:01")`)).toBeNull()
  })
})

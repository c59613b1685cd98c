import { describe, expect, it } from "vitest"
import { evaluateExpression } from "../../src/decision/Feel.ts"
import { FeelNumber } from "../../src/decision/FeelNumber.ts"
import { ExpectedTemporal } from "../../src/decision/TckExpected.ts"
import { equalValues, judge } from "../../src/decision/TckRunner.ts"

const feel = (expression: string): unknown => {
  const r = evaluateExpression(expression, {})
  if (r._tag !== "FeelOk") throw new Error(`${expression}: ${JSON.stringify(r)}`)
  return r.value
}
const num = (text: string): FeelNumber => FeelNumber.parse(text)!

describe("the TCK runner compares with the kit's text", () => {
  it("an expected date, time, date and time or duration is the kit's text, never null", () => {
    const expected = new ExpectedTemporal("duration", "P83333333Y3M")
    expect(equalValues(null, expected)).toBe(false)
    expect(equalValues(feel(`duration("P1Y2M")`), new ExpectedTemporal("duration", "P14M"))).toBe(true)
    expect(equalValues(feel(`duration("P1Y")`), new ExpectedTemporal("duration", "P1Y0M"))).toBe(true)
    expect(equalValues(feel(`duration("P0M")`), new ExpectedTemporal("duration", "PT0S"))).toBe(false)
    expect(equalValues(feel(`duration("PT1H")`), new ExpectedTemporal("duration", "PT60M"))).toBe(true)
    expect(equalValues(feel(`date("2017-01-01")`), new ExpectedTemporal("date", "2017-01-01"))).toBe(true)
    expect(equalValues(feel(`date("2017-01-01")`), new ExpectedTemporal("dateTime", "2017-01-01T00:00:00"))).toBe(
      false
    )
    expect(
      equalValues(
        feel(`date and time("2017-09-05T09:15:30.10Z")`),
        new ExpectedTemporal("dateTime", "2017-09-05T09:15:30.1+00:00")
      )
    ).toBe(true)
    expect(equalValues(feel(`time("10:30:11+11:00")`), new ExpectedTemporal("time", "10:30:11+01:00"))).toBe(false)
  })
  it("numbers exactly, and within the kit runners' 1e-8 only as an approximate pass", () => {
    const check = {
      resultNode: "r",
      isService: false,
      target: "r",
      expectError: false,
      expected: num("562.707359373292")
    }
    expect(judge(check, { value: num("562.707359373292") })).toEqual({ status: "passed" })
    expect(judge(check, { value: num("562.707359373266") })).toMatchObject({ status: "passed", approximate: true })
    expect(judge(check, { value: num("562.70735939") }).status).toBe("failed")
  })
  it("contexts must have the same members", () => {
    expect(equalValues({ a: num("1"), b: "x" }, { a: num("1") })).toBe(false)
    expect(equalValues({ a: num("1") }, { a: num("1") })).toBe(true)
  })
})

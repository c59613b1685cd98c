// Temporal texts by one set of rules for the constructors and the @-literals (FeelTemporalText.ts), and the
// subtraction rules between dates, date-times and times (FeelArithmetic.ts); the upstream kit's 0100 and 1116.
import { describe, expect, it } from "vitest"
import { evaluateExpression } from "../../src/decision/feel/Feel.ts"
import { isTemporal, temporalText } from "../../src/decision/feel/FeelTemporal.ts"

const feel = (expression: string): unknown => {
  const r = evaluateExpression(expression, {})
  if (r._tag !== "FeelOk") throw new Error(`${expression}: ${JSON.stringify(r)}`)
  const v = r.value
  return isTemporal(v) ? temporalText(v) : v === null || typeof v !== "object" ? v : String(v)
}

describe("temporal texts", () => {
  it("a time or date-time has an offset or a zone id, never both (DMN 1.5 §10.3.2.3.4/.5)", () => {
    expect(feel(`time("13:20:00+02:00@Europe/Paris")`)).toBeNull()
    expect(feel(`@"13:20:00+02:00@Europe/Paris"`)).toBeNull()
    expect(feel(`@"2021-01-01T13:20:00+02:00@Europe/Paris"`)).toBeNull()
    // a zone id alone is a time's zone (the kit's 1116 writes it back)
    expect(feel(`string(time("00:01:00@Europe/Paris"))`)).toBe("00:01:00@Europe/Paris")
    expect(feel(`@"13:20:00@America/Tijuana"`)).toBe("13:20:00@America/Tijuana")
    expect(feel(`time("13:20:00@xyz/abc")`)).toBeNull()
  })
  it("literals read as their constructors: 24:00:00, -00:00, offsets within ±18:00", () => {
    expect(feel(`@"2021-01-01T24:00:00" + @"PT1S"`)).toBe("2021-01-02T00:00:01")
    expect(feel(`@"2021-01-01T24:00:00" - @"PT1S"`)).toBe("2021-01-01T23:59:59")
    expect(feel(`@"24:00:00"`)).toBe("00:00:00")
    expect(feel(`time("11:22:33-00:00")`)).toBe("11:22:33Z")
    expect(feel(`time(date and time("2017-08-10T10:20:00-00:00"))`)).toBe("10:20:00Z")
    expect(feel(`@"10:00:00+19:00"`)).toBeNull()
    expect(feel(`@"PT0.S"`)).toBe("PT0S")
  })
  it("time(h, m, s, offset) keeps an offset's seconds", () => {
    expect(feel(`string(time(11, 59, 45, duration("PT2H45M55S")))`)).toBe("11:59:45+02:45:55")
    expect(feel(`string(time(11, 59, 45, duration("-PT2H45M55S")))`)).toBe("11:59:45-02:45:55")
    expect(feel(`string(time(11, 59, 45, duration("PT2H")))`)).toBe("11:59:45+02:00")
  })
})

describe("subtraction between dates, date-times and times", () => {
  it("a date counts as its midnight UTC against a date and time", () => {
    expect(feel(`@"2021-01-02T10:10:10@Europe/Paris" - @"2021-01-01"`)).toBe("P1DT9H10M10S")
    expect(feel(`@"2021-01-02" - @"2021-01-01T10:10:10+11:00"`)).toBe("P1DT49M50S")
    // a local date and time with a (UTC) date: undefined, as zoned − local is
    expect(feel(`@"2021-01-01T00:00:00" - @"2021-01-02"`)).toBeNull()
  })
  it("a time has no date: dates and date-times with times do not subtract", () => {
    expect(feel(`@"2021-01-01" - @"10:10:10"`)).toBeNull()
    expect(feel(`@"10:10:10" - @"2021-01-01"`)).toBeNull()
    expect(feel(`@"2021-01-01T10:10:10" - @"10:10:10"`)).toBeNull()
    expect(feel(`@"10:10:10" - @"2021-01-01T10:10:10"`)).toBeNull()
    expect(feel(`@"10:10:10" - @"09:10:10"`)).toBe("PT1H")
  })
})

describe("substring", () => {
  it("drops a fraction of the length (the kit's 1103)", () => {
    expect(feel(`substring("foobar", 3, 3.8)`)).toBe("oba")
    expect(feel(`substring("foobar", 3, 3)`)).toBe("oba")
  })
})

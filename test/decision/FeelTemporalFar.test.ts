import { describe, expect, it } from "vitest"
import { evaluateExpression } from "../../src/decision/feel/Feel.ts"
import { isTemporal, temporalText } from "../../src/decision/feel/FeelTemporal.ts"

const feel = (expression: string): unknown => {
  const r = evaluateExpression(expression, {})
  if (r._tag !== "FeelOk") throw new Error(`${expression}: ${JSON.stringify(r)}`)
  const v = r.value
  return isTemporal(v) ? temporalText(v) : v === null || typeof v !== "object" ? v : String(v)
}

describe("years up to ±999,999,999 (beyond Temporal's ±271,821)", () => {
  it("dates and date-times are read, built and written", () => {
    expect(feel(`string(date("999999999-12-31"))`)).toBe("999999999-12-31")
    expect(feel(`string(date(-999999999, 12, 31))`)).toBe("-999999999-12-31")
    expect(feel(`date and time("999999999-12-31T23:59:59.999999999@Europe/Paris")`)).toBe(
      "999999999-12-31T23:59:59.999999999@Europe/Paris"
    )
    expect(feel(`date and time(date("-999999999-12-31"), time("10:00:00+02:00"))`)).toBe(
      "-999999999-12-31T10:00:00+02:00"
    )
    expect(feel(`date("9999999999-12-25")`)).toBeNull()
    expect(feel(`date(1000000000, 1, 1)`)).toBeNull()
  })
  it("calendar rules hold: properties, arithmetic, order", () => {
    expect(feel(`date("999999999-12-31").year`)).toBe("999999999")
    expect(feel(`date("999999999-12-31").weekday`)).toBe("5") // as 1999-12-31, 400-year cycles apart
    expect(feel(`day of year(date("-999999999-12-31"))`)).toBe("365")
    expect(feel(`date("999999999-12-30") + duration("P1D")`)).toBe("999999999-12-31")
    expect(feel(`date("999999999-12-31") + duration("P1D")`)).toBeNull()
    expect(feel(`date("999999999-12-31") - date("999999998-12-31")`)).toBe("P365D")
    expect(feel(`date("999999999-12-31") > date("2020-01-01")`)).toBe(true)
    expect(feel(`date and time("-999999999-01-01T00:00:00Z") < date and time("-999999998-01-01T00:00:00Z")`)).toBe(
      true
    )
    expect(feel(`date("999999999-12-31") = date(999999999, 12, 31)`)).toBe(true)
  })
  it("years and months durations of any size up to 999,999,999 years", () => {
    expect(feel(`duration("P999999999M")`)).toBe("P83333333Y3M")
    expect(feel(`duration("-P99999999Y")`)).toBe("-P99999999Y")
    expect(feel(`duration("P99999999Y") > duration("P1Y")`)).toBe(true)
    expect(feel(`duration("P99999999Y").years`)).toBe("99999999")
    expect(feel(`duration("P999999999M") + duration("P1M")`)).toBe("P83333333Y4M")
    expect(feel(`duration("P1Y") - duration("P13M")`)).toBe("-P1M")
    expect(feel(`years and months duration(date("999999999-12-31"), date("-999999999-01-01"))`)).toBe(
      "-P1999999998Y11M"
    )
  })
  it("arithmetic across 400-year cycles gives the calendar's values, not null", () => {
    // date − date, either way, between far years and near ones
    expect(feel(`date("999999999-12-31") - date("2020-01-01")`)).toBe("P365241762209D")
    expect(feel(`date("2020-01-01") - date("999999999-12-31")`)).toBe("-P365241762209D")
    expect(feel(`date("-999999999-01-01") - date("999999999-12-31")`)).toBe("-P730484999633D")
    // date ± durations that cross cycles, and back
    expect(feel(`date("2020-01-01") + duration("P999997979Y")`)).toBe("999999999-01-01")
    expect(feel(`date("2020-02-29") + duration("P999997979Y")`)).toBe("999999999-02-28")
    expect(feel(`date("999999999-12-31") - duration("P999997979Y") = date("2020-12-31")`)).toBe(true)
    expect(feel(`date("-999999999-01-01") + duration("P1999999998Y11M")`)).toBe("999999999-12-01")
    expect(feel(`date("2020-01-01") + (date("999999999-12-31") - date("2020-01-01"))`)).toBe("999999999-12-31")
    expect(feel(`date("2020-01-01") + duration("P100000000D")`)).toBe("275810-09-14")
    expect(feel(`date("2020-01-01") + duration("P100000000D") - duration("P100000000D")`)).toBe("2020-01-01")
    expect(feel(`date("2020-02-29") + duration("P999997980Y")`)).toBeNull() // year 1,000,000,000
    // date-times: differences, shifts, comparisons; local − zoned stays null
    expect(feel(`date and time("999999999-12-31T10:00:00Z") - date and time("2020-01-01T00:00:00Z")`)).toBe(
      "P365241762209DT10H"
    )
    expect(feel(`date and time("999999999-12-31T10:00:00") - date and time("2020-01-01T00:00:00")`)).toBe(
      "P365241762209DT10H"
    )
    expect(feel(`date and time("999999999-12-31T10:00:00") - date and time("2020-01-01T00:00:00Z")`)).toBeNull()
    expect(feel(`date and time("2020-01-01T00:00:00Z") + duration("P365241762209DT10H")`)).toBe(
      "999999999-12-31T10:00:00Z"
    )
    expect(feel(`date and time("2020-01-01T10:00:00@Europe/Paris") + duration("P999997979Y")`)).toBe(
      "999999999-01-01T10:00:00@Europe/Paris"
    )
    expect(
      feel(`date and time("999999999-12-31T10:00:00Z") - duration("P365241762209DT10H") = @"2020-01-01T00:00:00Z"`)
    ).toBe(true)
    expect(feel(`date and time("999999999-12-31T10:00:00Z") > date and time("2020-01-01T00:00:00Z")`)).toBe(true)
    expect(feel(`date and time("-999999999-12-31T10:00:00Z") < date and time("2020-01-01T00:00:00+02:00")`)).toBe(true)
    expect(feel(`date("999999999-12-31") - date and time("2020-01-01T00:00:00Z")`)).toBe("P365241762209D")
  })
  it("days and time durations beyond feelin's 100,000,000 days", () => {
    expect(feel(`duration("P365241762209DT1H0.5S")`)).toBe("P365241762209DT1H0.5S")
    expect(feel(`-duration("P365241762209D")`)).toBe("-P365241762209D")
    expect(feel(`duration("P365241762209D").days`)).toBe("365241762209")
    expect(feel(`duration("P365241762209D") > duration("P365241762208DT23H59M59S")`)).toBe(true)
    expect(feel(`duration("P365241762209D") = duration("P365241762208DT24H")`)).toBe(true)
    expect(feel(`duration("P198560000D")`)).toBe("P198560000D")
    expect(feel(`duration("P198560000D") + duration("PT1H") - duration("P98560000D")`)).toBe("P100000000DT1H")
    expect(feel(`duration("P198560000D") * 2`)).toBe("P397120000D")
    expect(feel(`duration("P198560000D") / duration("P1D")`)).toBe("198560000")
    expect(feel(`date("-271822-01-01") - date("271822-01-01")`)).toBe("-P198561893D")
    expect(feel(`date("271822-01-01") + (date("-271822-01-01") - date("271822-01-01"))`)).toBe("-271822-01-01")
  })
  it("24:00:00 is the next day's midnight in any year", () => {
    expect(feel(`date and time("999999999-12-30T24:00:00")`)).toBe("999999999-12-31T00:00:00")
    expect(feel(`date and time("2016-02-28T24:00:00")`)).toBe("2016-02-29T00:00:00")
    expect(feel(`date and time("1900-02-28T24:00:00")`)).toBe("1900-03-01T00:00:00")
    expect(feel(`date and time("-0001-12-31T24:00:00Z")`)).toBe("0000-01-01T00:00:00Z")
  })
})

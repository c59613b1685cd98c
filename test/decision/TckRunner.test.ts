import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { evaluateExpression } from "../../src/decision/feel/Feel.ts"
import { FeelNumber } from "../../src/decision/feel/FeelNumber.ts"
import { ExpectedTemporal } from "../../src/decision/tck/TckExpected.ts"
import { equalValues, judge, readTckFolder, Unreadable } from "../../src/decision/tck/TckRunner.ts"

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
  it("numbers the kit states to fewer digits pass as rounded when every digit it states is ours", () => {
    const check = (expected: string) => ({
      resultNode: "r",
      isService: false,
      target: "r",
      expectError: false,
      expected: num(expected)
    })
    const exp4 = num("54.59815003314423907811026120286088")
    expect(judge(check("54.59815003"), { value: exp4 })).toMatchObject({ status: "passed", rounded: true })
    // a stated digit that differs: only within the tolerance
    expect(judge(check("54.59815004"), { value: exp4 })).toMatchObject({ status: "passed", approximate: true })
    // rounded half-even to the kit's places, never beyond the tolerance
    expect(judge(check("2.5"), { value: num("2.54") }).status).toBe("failed")
    expect(judge(check("0.12345678"), { value: num("0.123456785") })).toMatchObject({ rounded: true })
    expect(judge(check("0.12345679"), { value: num("0.123456785") })).toMatchObject({ approximate: true })
  })
  it("contexts must have the same members", () => {
    expect(equalValues({ a: num("1"), b: "x" }, { a: num("1") })).toBe(false)
    expect(equalValues({ a: num("1") }, { a: num("1") })).toBe(true)
  })
})

describe("values of the kit that do not read", () => {
  it("are never null: an unreadable input errors the case, an unreadable expected value matches nothing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tck-"))
    fs.writeFileSync(
      path.join(dir, "x-test-01.xml"),
      `<testCases xmlns="http://www.omg.org/spec/DMN/20160719/testcase" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
        <modelName>x.dmn</modelName>
        <testCase id="1">
          <inputNode name="d"><value xsi:type="xsd:date">99999999999-01-01</value></inputNode>
          <inputNode name="n"><value xsi:type="xsd:decimal">12</value></inputNode>
          <resultNode name="r"><expected><value xsi:type="xsd:decimal">not a number</value></expected></resultNode>
        </testCase>
      </testCases>`
    )
    const folder = readTckFolder(dir)
    fs.rmSync(dir, { recursive: true })
    const tc = folder.cases[0]!
    expect(tc.unreadable).toEqual(["d"])
    expect(tc.checks[0]!.expected).toBeInstanceOf(Unreadable)
    expect(equalValues(null, tc.checks[0]!.expected)).toBe(false)
  })
})

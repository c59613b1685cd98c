import { describe, expect, it } from "vitest"
import { evaluateExpression, evaluateFeel, evaluateUnaryTests } from "../../src/decision/feel/Feel.ts"
import { FeelNumber } from "../../src/decision/feel/FeelNumber.ts"

/** Evaluates with JSON in and out, as the API does. */
const value = (e: string, ctx: Record<string, unknown> = {}) => {
  const r = evaluateFeel(e, ctx)
  return r._tag === "FeelOk" ? r.value : r
}

const test = (tests: string, input: unknown, ctx: Record<string, unknown> = {}) => {
  const r = evaluateUnaryTests(tests, input, ctx)
  return r._tag === "FeelOk" ? r.value : r
}

const num = (s: string) => FeelNumber.parse(s)

describe("FEEL numbers are decimals", () => {
  it("0.1 + 0.2 = 0.3", () => {
    expect(value("0.1 + 0.2 = 0.3")).toBe(true)
    expect(value("0.1 + 0.2")).toBe(0.3)
  })
  it("1/3 has 34 significant digits", () => {
    const r = evaluateExpression("1/3", {})
    expect(r._tag === "FeelOk" && String(r.value)).toBe("0.3333333333333333333333333333333333")
    expect(value("string(1/3)")).toBe("0.3333333333333333333333333333333333")
  })
  it("large integers stay exact", () => {
    expect(value("string(12345678901234567890 * 10)")).toBe("123456789012345678900")
    expect(value("9007199254740993 - 9007199254740992")).toBe(1)
  })
  it("JS numbers given to the core API become decimals", () => {
    const r = evaluateExpression("x + y", { x: 0.1, y: [0.2][0] })
    expect(r._tag === "FeelOk" && r.value instanceof FeelNumber && r.value.toString()).toBe("0.3")
    expect(evaluateUnaryTests("[0.3..1]", 0.3, {})).toMatchObject({ value: true })
  })
  it("JSON numbers in variables become decimals", () => {
    expect(value("x + y = 0.3", { x: 0.1, y: 0.2 })).toBe(true)
    expect(value("sum(xs)", { xs: [0.1, 0.2, 0.3] })).toBe(0.6)
  })
  it("numeric built-ins round exactly", () => {
    expect(value("decimal(1/3, 2)")).toBe(0.33)
    expect(value("decimal(2.5, 0)")).toBe(2)
    expect(value("round half up(-2.5, 0)")).toBe(-3)
    expect(value("floor(-1.5)")).toBe(-2)
    expect(value("floor(1.56, null)")).toBe(null)
    expect(value("modulo(-10, 3)")).toBe(2)
    expect(value("mean([1, 2, 4])")).toBe(Number("2.333333333333333333333333333333333"))
    expect(evaluateExpression("stddev([2, 4, 7, 5])", {})).toMatchObject({
      value: num("2.081665999466132735282297706979931")
    })
  })
})

describe("FEEL language features", () => {
  it("ranges: literals, membership, range() and the range functions", () => {
    expect(value("5 in [1..10]")).toBe(true)
    expect(value("10 in [1..10)")).toBe(false)
    expect(value("[1..10]")).toBe("[1..10]")
    expect(value("range(\"[1..3]\") = [1..3]")).toBe(true)
    expect(value("range(\"[3..1]\")")).toBe(null)
    expect(value("range(\">=10\")")).toBe(null)
    // range()'s ends are literals only: strings, temporal literals and constructors over one string
    expect(value("range(\"]\\\"a\\\"..\\\"c\\\"[\") = ]\"a\"..\"c\"[")).toBe(true)
    expect(
      value("range(\"[@\\\"2020-01-01\\\"..date(\\\"2020-12-31\\\"))\") = [date(\"2020-01-01\")..date(\"2020-12-31\"))")
    )
      .toBe(true)
    expect(value("range(\"[duration(\\\"P1D\\\")..duration(\\\"P2D\\\")]\") = [duration(\"P1D\")..duration(\"P2D\")]"))
      .toBe(true)
    expect(value("range(\"[date(\\\"2020-01-01\\\")..date and time(\\\"2021-01-01T00:00:00\\\")]\")")).toBe(null)
    expect(value("range(\"[1..2+3]\")")).toBe(null)
    expect(value("range(\"[x..5]\")")).toBe(null)
    expect(value("before(1, [2..5])")).toBe(true)
    expect(value("overlaps([1..5], [3..8])")).toBe(true)
    expect(value("meets([1..5], [5..8])")).toBe(true)
    expect(value("meets([1..5), [5..8])")).toBe(false)
    expect(value("includes([1..10], [2..3])")).toBe(true)
  })
  it("instance of, including list, context and range types", () => {
    expect(value("5 instance of number")).toBe(true)
    expect(value("null instance of Any")).toBe(false)
    expect(value("[1, 2] instance of list<number>")).toBe(true)
    expect(value("[1, \"a\"] instance of list<number>")).toBe(false)
    expect(value("{a: 1} instance of context<a: number>")).toBe(true)
    expect(value("[1..2] instance of range<number>")).toBe(true)
    expect(value("@\"P1D\" instance of days and time duration")).toBe(true)
  })
  it("for, some, every, filters and paths", () => {
    expect(value("for i in 1..3 return i * 2")).toEqual([2, 4, 6])
    expect(value("for i in 3..1 return i")).toEqual([3, 2, 1])
    expect(value("for i in [1..3] return i")).toEqual([1, 2, 3])
    expect(value("for i in [1, 2], j in [10, 20] return i + j")).toEqual([11, 21, 12, 22])
    expect(value("for i in 1..4 return if i = 1 then 1 else i * partial[-1]")).toEqual([1, 2, 6, 24])
    expect(value("some x in [1, 2, 3] satisfies x > 2")).toBe(true)
    expect(value("every x in [1, 2, 3] satisfies x > 2")).toBe(false)
    expect(value("[1, 2, 3, 4][item > 2]")).toEqual([3, 4])
    // A context's entry named item hides the item itself; other entries are in scope too.
    expect(value("[{item: 1}, {item: 2}, {item: 3}][item >= 2]")).toEqual([{ item: 2 }, { item: 3 }])
    expect(value("[{a: 1}, {a: 2}][item.a = 2 and a = 2]")).toEqual([{ a: 2 }])
    expect(value("[1, 2, 3][-1]")).toBe(3)
    expect(value("[{a: 1}, {a: 2}].a")).toEqual([1, 2])
    expect(value("{a: {b c: 5}}.a.b c")).toBe(5)
  })
  it("functions: user-defined, typed parameters, named arguments", () => {
    expect(value("{f: function(a, b) a - b, r: f(b: 1, a: 5)}.r")).toBe(4)
    expect(value("{f: function(a: number) a, r: f(\"x\")}.r")).toBe(null)
    expect(value("substring(string: \"hello\", start position: 2, length: 3)")).toBe("ell")
    expect(value("sort([3, 1, 2], function(x, y) x > y)")).toEqual([3, 2, 1])
  })
  it("strings and regular expressions", () => {
    expect(value("string length(\"\\uD83D\\uDC0E\")")).toBe(1)
    expect(value("matches(\"abc\", \"B\", \"i\")")).toBe(true)
    expect(value("matches(\"h\", \"(.)\\3\")")).toBe(null)
    expect(value("replace(\"banana\", \"a\", \"[$0]\")")).toBe("b[a]n[a]n[a]")
    expect(value("split(\"John Doe\", \"\\s\")")).toEqual(["John", "Doe"])
    expect(value("list replace([1, 2, 3], 2, 9)")).toEqual([1, 9, 3])
  })
  it("equality across kinds is null, comparison of temporal values works", () => {
    expect(value("1 = \"1\"")).toBe(null)
    expect(value("null = null")).toBe(true)
    expect(value("[1, 2] = [1, 2]")).toBe(true)
    expect(value("@\"2020-01-01\" < @\"2020-01-02\"")).toBe(true)
    expect(value("date and time(\"2018-12-08T10:30:11\") = date and time(\"2018-12-08T10:30:08\")")).toBe(false)
    expect(value("-duration(\"P1D\")")).toBe("-P1D")
    expect(value("date and time(\"2016-12-24T23:59:00-08:00\") - date and time(\"2015-12-24T00:00:01-01:00\")")).toBe(
      "P367DT6H58M59S"
    )
  })
  it("years beyond 9999 and before year 1 (XML Schema form)", () => {
    expect(value("date(\"99999-12-31\")")).toBe("99999-12-31")
    expect(value("date(\"-2017-01-01\")")).toBe("-2017-01-01")
    expect(value("date(\"01211-12-31\")")).toBe(null)
    expect(value("years and months duration(date(\"2014-12-31\"), date(\"-2019-10-01\"))")).toBe("-P4033Y2M")
  })
})

describe("unary tests", () => {
  it("comparisons, ranges, lists, negation and ?", () => {
    expect(test("< 10", num("5"))).toBe(true)
    expect(test("[1..5], > 100", num("200"))).toBe(true)
    expect(test("not(1, 2)", num("2"))).toBe(false)
    expect(test("\"a\", \"b\"", "b")).toBe(true)
    expect(test("? > 3", num("4"))).toBe(true)
    expect(test("-", null)).toBe(true)
    expect(test("x", num("3"), { x: num("3") })).toBe(true)
    expect(test("< 10", null)).toBe(null)
  })
})

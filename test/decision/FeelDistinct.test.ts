// distinct values and union keep FEEL's semantics — the first of each group of equal values (FEEL `=`), in the
// list's order — while looking most values up by a key instead of comparing every pair.
import { describe, expect, it } from "vitest"
import {
  budgeted,
  compileExpression,
  evaluateExpression,
  evaluateFeel,
  FeelScope
} from "../../src/decision/feel/Feel.ts"
import { distinctValues } from "../../src/decision/feel/FeelDistinct.ts"
import { isSyntaxError } from "../../src/decision/feel/FeelParser.ts"
import { feelEquals, feelToString } from "../../src/decision/feel/FeelValues.ts"

const json = (expression: string) => {
  const r = evaluateFeel(expression, {})
  return r._tag === "FeelOk" ? r.value : r
}

/** The FEEL value itself (numbers as decimals, temporal values as such). */
const feel = (expression: string): unknown => {
  const r = evaluateExpression(expression, {})
  if (r._tag !== "FeelOk") throw new Error(`${expression}: ${JSON.stringify(r)}`)
  return r.value
}

/** FEEL's text of each value, to compare results whose kinds JSON would blur (dates and strings). */
const texts = (expression: string): unknown => {
  const v = feel(expression)
  return Array.isArray(v) ? v.map((x) => feelToString(x, true)) : v
}

/** The definition: a value is kept unless one kept before it is `=` to it. */
const pairwise = (list: ReadonlyArray<unknown>): unknown[] => {
  const out: unknown[] = []
  for (const x of list) if (!out.some((y) => feelEquals(x, y) === true)) out.push(x)
  return out
}

describe("distinct values", () => {
  it("numbers that are equal collapse, whatever their written scale", () => {
    expect(json("distinct values([1, 1.0, 2, 1.00, 2.0, -0, 0])")).toEqual([1, 2, 0])
    expect(json("distinct values([0.1 + 0.2, 0.3, 10 / 10, 1])")).toEqual([0.3, 1])
    expect(json("distinct values([number(\"1.000\"), 1, number(\"1e0\"), number(\"10e-1\")])")).toEqual([1])
    // 34 digits tell these apart; a 35th is rounded away
    expect(json("count(distinct values([1, 1.000000000000000000000000000000001]))")).toBe(2)
    expect(json("count(distinct values([1, 1.0000000000000000000000000000000001]))")).toBe(1)
  })

  it("keeps the first of equal values, in the list's order", () => {
    expect(json("distinct values([3, 1, 3, 2, 1, 3])")).toEqual([3, 1, 2])
    expect(json("distinct values([\"b\", \"a\", \"b\", \"A\", \"a\"])")).toEqual(["b", "a", "A"])
    expect(json("distinct values([null, 1, null, true, false, true])")).toEqual([null, 1, true, false])
    // equal contexts whose entries come in another order: the first is kept, as it was written
    const [first] = feel("distinct values([{a: 1, b: 2}, {b: 2, a: 1}])") as Array<Record<string, unknown>>
    expect(Object.keys(first ?? {})).toEqual(["a", "b"])
    // equal instants in other offsets: the first is kept
    expect(texts("distinct values([@\"2020-01-01T10:00:00+01:00\", @\"2020-01-01T09:00:00Z\"])")).toEqual([
      "2020-01-01T10:00:00+01:00"
    ])
  })

  it("values of different kinds never collapse", () => {
    expect(json("distinct values([1, \"1\", [1], {a: 1}, null, true, \"true\", [], {}])")).toEqual([
      1,
      "1",
      [1],
      { a: 1 },
      null,
      true,
      "true",
      [],
      {}
    ])
    expect(texts("distinct values([date(\"2020-01-01\"), \"2020-01-01\", @\"2020-01-01\", date(\"2020-01-02\")])"))
      .toEqual(["2020-01-01", "\"2020-01-01\"", "2020-01-02"])
  })

  it("lists and contexts are equal element by element (1 and 1.0 too), contexts whatever their order", () => {
    expect(json("distinct values([[1, 2], [1.0, 2], [2, 1], [1, 2, 3], [[1]], [[1.0]]])")).toEqual([
      [1, 2],
      [2, 1],
      [1, 2, 3],
      [[1]]
    ])
    expect(json("distinct values([{a: 1, b: [1, \"x\"]}, {b: [1.0, \"x\"], a: 1}, {a: 1}, {a: 1, b: null}])"))
      .toEqual([{ a: 1, b: [1, "x"] }, { a: 1 }, { a: 1, b: null }])
    expect(json("distinct values([[null], [null], [[null]], {k: null}, {k: null}])")).toEqual([
      [null],
      [[null]],
      { k: null }
    ])
  })

  it("temporal values by FEEL `=`: durations by their length, instants across offsets, local apart from zoned", () => {
    expect(texts("distinct values([duration(\"P1Y\"), duration(\"P12M\"), duration(\"PT24H\"), duration(\"P1D\")])"))
      .toEqual(["P1Y", "P1D"])
    expect(
      texts(
        "distinct values([@\"2020-01-01T10:00:00+01:00\", @\"2020-01-01T09:00:00Z\", @\"2020-01-01T09:00:00\", " +
          "@\"2020-01-01T09:00:00\", @\"2020-01-01T10:00:00@Europe/Paris\"])"
      )
    ).toEqual(["2020-01-01T10:00:00+01:00", "2020-01-01T09:00:00"])
    expect(
      texts(
        "distinct values([time(\"10:00:00+01:00\"), time(\"10:00:00@Europe/Paris\"), time(\"09:00:00Z\"), " +
          "time(\"10:00:00\"), time(\"10:00:00\")])"
      )
    ).toEqual(
      pairwise(feel(
        "[time(\"10:00:00+01:00\"), time(\"10:00:00@Europe/Paris\"), time(\"09:00:00Z\"), time(\"10:00:00\"), " +
          "time(\"10:00:00\")]"
      ) as unknown[]).map((x) => feelToString(x, true))
    )
    // lists holding times: compared with `=`
    expect(json("count(distinct values([[time(\"10:00:00Z\")], [time(\"11:00:00+01:00\")], [time(\"10:00:00\")]]))"))
      .toBe(2)
  })

  it("ranges and functions", () => {
    expect(json("count(distinct values([[1..2], [1..2], (1..2], [1.0..2], [1..2), < 2, <= 2, < 2.0]))")).toBe(5)
    expect(json("{f: function(x) x, r: count(distinct values([f, f]))}.r")).toBe(1)
    expect(json("count(distinct values([function(x) x, function(x) x]))")).toBe(2)
  })

  it("a single value is a list of it; null is null", () => {
    expect(json("distinct values(1)")).toEqual([1])
    expect(json("distinct values(null)")).toBe(null)
    expect(json("distinct values([])")).toEqual([])
  })

  it("agrees with the pairwise definition on shuffled mixes of every kind", () => {
    const pool = feel(`[
      1, 1.0, 2, 0.5, 1/2, -1, 0, "1", "a", "A", "", null, true, false,
      [1], [1.0], [1, 2], [2, 1], [[1]], [], [null], ["a", [1, {x: 1}]], ["a", [1.0, {x: 1.0}]],
      {a: 1}, {a: 1.0}, {a: 1, b: 2}, {b: 2, a: 1}, {a: [1, 2]}, {}, {a: null},
      date("2020-01-01"), date("2020-01-02"), @"2020-01-01",
      @"2020-01-01T10:00:00+01:00", @"2020-01-01T09:00:00Z", @"2020-01-01T09:00:00", @"2020-01-01T10:00:00",
      @"2020-01-01T10:00:00@Europe/Paris",
      time("10:00:00"), time("10:00:00Z"), time("11:00:00+01:00"), time("10:00:00@Europe/Paris"), time("11:00:00@Europe/Paris"),
      duration("P1Y"), duration("P12M"), duration("P1D"), duration("PT24H"), duration("PT1H"),
      [1..2], [1..2], (1..2], < 2, [date("2020-01-01")..date("2020-01-02")],
      [time("10:00:00Z")], [time("11:00:00+01:00")], {t: @"2020-01-01T09:00:00Z"}, {t: @"2020-01-01T10:00:00+01:00"}
    ]`) as unknown[]
    // A fixed pseudo-random sequence: the same lists on every run.
    let seed = 12345
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let round = 0; round < 300; round++) {
      const list = Array.from({ length: 1 + random(60) }, () => pool[random(pool.length)])
      const expected = pairwise(list)
      const actual = distinctValues(list)
      expect(actual.length).toBe(expected.length)
      // the very same values (the first of each group), in the same order
      actual.forEach((x, i) => expect(x).toBe(expected[i]))
    }
  })
})

describe("union", () => {
  it("the distinct values of all the lists, in order", () => {
    expect(json("union([1, 2], [2.0, 3], [1])")).toEqual([1, 2, 3])
    expect(json("union([[1]], [[1.0], [2]])")).toEqual([[1], [2]])
    expect(json("union([\"a\", null], [null, \"b\", \"a\"])")).toEqual(["a", null, "b"])
    expect(json("union([{a: 1}], [{a: 1.0}, {a: 2}])")).toEqual([{ a: 1 }, { a: 2 }])
    expect(json("union([], [])")).toEqual([])
    expect(json("union([1], 2)")).toBe(null)
  })
})

describe("mode and flatten over large or deep lists", () => {
  it("mode counts equal numbers together", () => {
    expect(json("mode([6, 3, 9, 6, 6.0, 3, 3])")).toEqual([3, 6])
    expect(json("mode([])")).toEqual([])
  })

  it("flatten keeps the order, however deep the nesting", () => {
    expect(json("flatten([[1, [2, [3]]], [], 4, [[[]]], [5]])")).toEqual([1, 2, 3, 4, 5])
    // nested deeper than a recursive walk could go (built here: JSON input is converted recursively)
    let deep: unknown = ["0"]
    for (let i = 1; i <= 20_000; i++) deep = [deep, String(i)]
    const scope = FeelScope.of({ deep })
    const compiled = compileExpression("flatten(deep)", scope)
    if (isSyntaxError(compiled)) throw new Error("syntax")
    expect(budgeted(() => compiled(scope))).toEqual(Array.from({ length: 20_001 }, (_, i) => String(i)))
  })
})

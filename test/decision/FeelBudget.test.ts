// The FEEL budget: every kind of unbounded work stops with a FeelLimitExceeded naming the limit, fast, and ordinary
// expressions are untouched. Regular expressions run in linear time (RE2) or, when they need backtracking, only on
// short inputs and without quantified groups.
import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/decision/feel/Feel.ts"
import { configureFeelLimits, DEFAULT_FEEL_LIMITS, type FeelLimits } from "../../src/decision/feel/FeelBudget.ts"

const limitOf = (expression: string, variables: Record<string, unknown> = {}) => {
  const result = evaluateFeel(expression, variables)
  return result._tag === "FeelLimitExceeded" ? result.limit : result._tag
}

describe("FEEL budget", () => {
  it("nested loops count every inner iteration", () => {
    // No wall-time limit here: on a busy machine it could run out before the steps do.
    configureFeelLimits({ maxMillis: 3_600_000 })
    try {
      expect(limitOf("count(for x in 1..10000, y in 1..10000 return 1)")).toBe("maxSteps")
      expect(limitOf("some x in 1..5000, y in 1..5000 satisfies x + y < 0")).toBe("maxSteps")
    } finally {
      configureFeelLimits(DEFAULT_FEEL_LIMITS)
    }
    expect(evaluateFeel("count(for x in 1..100, y in 1..100 return 1)", {})).toMatchObject({
      _tag: "FeelOk",
      value: 10000
    })
  })

  it("recursion stops at the call depth, and strings and lists stop at their sizes", () => {
    expect(limitOf("{ f: function(n) f(n + 1), r: f(1) }.r")).toBe("maxCallDepth")
    expect(evaluateFeel("{ f: function(n) if n = 0 then 0 else 1 + f(n - 1), r: f(50) }.r", {})).toMatchObject({
      value: 50
    })
    const doubling = `{ ${Array.from({ length: 30 }, (_, i) => `s${i + 1}: s${i} + s${i}`).join(", ")} }.s30`
    expect(limitOf(doubling, { s0: "xxxxxxxxxx" })).toBe("maxStringLength")
    const listDoubling = `{ ${
      Array.from({ length: 30 }, (_, i) => `l${i + 1}: concatenate(l${i}, l${i})`).join(", ")
    } }.l30`
    expect(["maxListLength", "maxSteps"]).toContain(limitOf(listDoubling, { l0: [1, 2, 3] }))
  })

  it("an expression too long or nested too deep is refused before it is parsed", () => {
    const deep = evaluateFeel("(".repeat(10_000) + "1" + ")".repeat(10_000), {})
    expect((deep as { message: string }).message).toMatch(/nests brackets deeper than 64/)
    const long = evaluateFeel("(".repeat(100_000) + "1" + ")".repeat(100_000), {})
    expect((long as { message: string }).message).toMatch(/longer than 100000 characters/)
    expect(evaluateFeel("{a:".repeat(5000) + "1" + "}".repeat(5000), {})).toMatchObject({ _tag: "FeelSyntaxError" })
    expect(evaluateFeel("((((1))))", {})).toMatchObject({ _tag: "FeelOk", value: 1 })
  })

  it("time is bounded too, and the limits can be configured", () => {
    configureFeelLimits({ maxMillis: 1, maxSteps: 100_000_000 })
    try {
      expect(limitOf("count(for x in 1..1000000 return string(x))")).toBe("maxMillis")
    } finally {
      configureFeelLimits(DEFAULT_FEEL_LIMITS)
    }
  })
})

describe("regular expressions in linear time", () => {
  it("catastrophic patterns run on the automaton", () => {
    expect(evaluateFeel(`matches("${"a".repeat(30_000)}!", "^(a+)+$")`, {})).toMatchObject({
      _tag: "FeelOk",
      value: false
    })
    expect(evaluateFeel(`replace("${"a".repeat(30_000)}b", "(a|aa)+$", "x")`, {})).toMatchObject({
      _tag: "FeelOk",
      value: "a".repeat(30_000) + "b"
    })
    expect(evaluateFeel(`split("a,b,,c", ",")`, {})).toMatchObject({ value: ["a", "b", "", "c"] })
    expect(evaluateFeel(`replace("abc", "(a)(b)", "$2$1")`, {})).toMatchObject({ value: "bac" })
  })

  it("back-references run only where backtracking is safe", () => {
    expect(evaluateFeel(`matches("aA", "(a)\\\\1", "i")`, {})).toMatchObject({ _tag: "FeelOk", value: true })
    expect(limitOf(`matches("${"a".repeat(40)}", "^(a+)+\\\\1$")`)).toBe("maxBacktrackingInput")
    expect(limitOf(`matches("${"ab".repeat(2_000)}", "(a)b\\\\1")`)).toBe("maxBacktrackingInput")
  })
})

/** Runs with the wall-time limit out of the way, so that a busy machine cannot change the outcome: steps decide. */
const stepsOnly = <A>(run: () => A, overrides: Partial<FeelLimits> = {}): A => {
  configureFeelLimits({ maxMillis: 3_600_000, ...overrides })
  try {
    return run()
  } finally {
    configureFeelLimits(DEFAULT_FEEL_LIMITS)
  }
}

describe("built-ins are charged for the work they do", () => {
  // Before, distinct values and union compared every pair (minutes for these lists); the test timeout is the bound.
  it("distinct values and union take time linear in their lists", { timeout: 20_000 }, () => {
    stepsOnly(() => {
      expect(evaluateFeel("count(distinct values(for i in 1..200000 return i))", {})).toMatchObject({
        _tag: "FeelOk",
        value: 200000
      })
      expect(evaluateFeel("count(union(for i in 1..100000 return [i], for i in 1..100000 return [i]))", {}))
        .toMatchObject({ _tag: "FeelOk", value: 100000 })
      expect(evaluateFeel("count(distinct values(for i in 1..200000 return modulo(i, 1000) / 4))", {}))
        .toMatchObject({ _tag: "FeelOk", value: 1000 })
      expect(
        evaluateFeel("count(distinct values(for i in 1..100000 return {a: string(modulo(i, 7)), b: [i > 5]}))", {})
      )
        .toMatchObject({ _tag: "FeelOk", value: 12 })
      expect(evaluateFeel("count(mode(for i in 1..150000 return i))", {})).toMatchObject({ value: 150000 })
    })
  })

  it(
    "with the default limits they answer, or stop with the budget error — never run for minutes",
    { timeout: 20_000 },
    () => {
      const union = evaluateFeel("union(for i in 1..100000 return [i], for i in 1..100000 return [i])", {})
      if (union._tag === "FeelOk") expect((union.value as unknown[]).length).toBe(100000)
      else expect(union).toMatchObject({ _tag: "FeelLimitExceeded" })
      const distinct = evaluateFeel("count(distinct values(for i in 1..200000 return i))", {})
      if (distinct._tag === "FeelOk") expect(distinct.value).toBe(200000)
      else expect(distinct).toMatchObject({ _tag: "FeelLimitExceeded" })
      // Values without a key (functions here) are compared pairwise: that work is charged, and stops at the budget.
      expect(["maxSteps", "maxMillis"]).toContain(
        limitOf("count(distinct values(for i in 1..100000 return function(x) x))")
      )
    }
  )

  // A list (or text, or context) from the input is not charged when it is made: a built-in going over it in a loop
  // is. Before, each of these ran its 1000 calls over the whole input charged about a step a call, within the steps
  // (those that make a list as long as their input, such as sort or flatten, were charged for it already).
  const n = 10_000
  const inputs: Record<string, unknown> = {
    L: Array.from({ length: n }, (_, i) => i),
    D: Array.from({ length: n }, (_, i) => i % 2),
    B: Array.from({ length: n }, () => true),
    S: Array.from({ length: n }, () => "s"),
    C: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])),
    T: "t".repeat(100_000)
  }
  const inputsOf = (expression: string) =>
    Object.fromEntries(Object.entries(inputs).filter(([name]) => new RegExp(`\\b${name}\\b`).test(expression)))
  it.each([
    "list contains(L, -1)",
    "index of(L, -1)",
    "count(distinct values(D))",
    "count(union(D, D))",
    "sum(L)",
    "mean(L)",
    "product(L)",
    "max(L)",
    "median(L)",
    "stddev(L)",
    "mode(D)",
    "all(B)",
    "any(B)",
    "string length(string join(S))",
    "-1 in L",
    "L = L",
    "string length(string(L))",
    "get value(context put(C, \"x\", 1), \"x\")",
    "context merge([C, C]).k1",
    "string length(T)",
    "substring(T, 5, 1)",
    "contains(T, \"x\")",
    "string length(upper case(T))",
    "matches(T, \"x\")"
  ])("%s inside a loop is charged for the input it goes over", { timeout: 20_000 }, (call) => {
    stepsOnly(() => {
      expect(limitOf(`count(for i in 1..1000 return ${call})`, inputsOf(call))).toBe("maxSteps")
    }, { maxSteps: 10_000 })
  })
})

describe("numbers with far exponents, and long texts", () => {
  const value = (expression: string, variables: Record<string, unknown> = {}) => {
    const r = evaluateFeel(expression, variables)
    return r._tag === "FeelOk" ? r.value : r
  }

  // Before, each made a power of ten as large as the exponent (a billion digits): minutes, or for ever.
  it("no operation makes a power of ten as large as an exponent", { timeout: 20_000 }, () => {
    expect(value("decimal(number(\"1e-999999999\"), 2)")).toBe(0)
    expect(value("floor(number(\"-1e-999999999\"))")).toBe(-1)
    expect(value("number(\"1e-999999999\") < 1")).toBe(true)
    expect(value("number(\"-1e999999999\") < number(\"-1e-999999999\")")).toBe(true)
    expect(value("modulo(number(\"1e999999999\"), 7)")).toBe(6)
    expect(value("modulo(number(\"1e-999999999\"), 1) = number(\"1e-999999999\")")).toBe(true)
    expect(value("modulo(-1 * number(\"1e-999999999\"), 1)")).toBe(1)
    expect(value("modulo(1, number(\"1e-999999999\"))")).toBe(0)
    expect(value("exp(number(\"1e-999999999\"))")).toBe(1)
    expect(value("exp(number(\"-1e999999\"))")).toBe(0)
    expect(value("exp(number(\"1e999999\"))")).toBe(null)
    expect(value("floor(log(number(\"1e-999999999\")))")).toBe(-2302585091)
    expect(value("2 ** number(\"1e-999999999\")")).toBe(1)
    expect(value("1.5 ** number(\"1e99\")")).toBe(null)
    expect(value("0.5 ** number(\"1e99\")")).toBe(0)
    expect(value("1 ** number(\"1e99\")")).toBe(1)
    expect(value("number(\"1e-999999999\") ** 0.5")).toBe(0)
    expect(limitOf("string(number(\"1e99999999\"))")).toBe("maxStringLength")
  })

  it("a long number text is rounded to 34 digits without reading all of it as one integer", () => {
    expect(value("string(number(\"1.00000000000000000000000000000000050\"))")).toBe("1")
    expect(value("string(number(\"1.000000000000000000000000000000000500000000001\"))")).toBe(
      "1.000000000000000000000000000000001"
    )
    expect(value("string(number(\"1.0000000000000000000000000000000015000\"))")).toBe(
      "1.000000000000000000000000000000002"
    )
    expect(value("string(number(\"-0.00009999999999999999999999999999999999999\"))")).toBe("-0.0001")
    const digits = "1".repeat(400_000)
    expect(value(`number(X) = number("${"1".repeat(34)}e399966")`, { X: digits })).toBe(true)
    expect(value("string(number(\"000000000000000000000000000000000000000000012.5\"))")).toBe("12.5")
  })

  it("a date and time text of many T's is refused in linear time", { timeout: 20_000 }, () => {
    expect(value("date and time(D)", { D: "T".repeat(300_000) })).toBe(null)
    expect(value("date and time(\"2020-01-01T10:00:00+19:00\")")).toBe(null)
    expect(value("date and time(\"2020-01-01T10:00:00+01:00\")")).toBe("2020-01-01T10:00:00+01:00")
  })
})

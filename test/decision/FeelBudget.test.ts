// The FEEL budget: every kind of unbounded work stops with a FeelLimitExceeded naming the limit, fast, and ordinary
// expressions are untouched. Regular expressions run in linear time (RE2) or, when they need backtracking, only on
// short inputs and without quantified groups.
import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/decision/feel/Feel.ts"
import { configureFeelLimits, DEFAULT_FEEL_LIMITS } from "../../src/decision/feel/FeelBudget.ts"

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

/** Unary tests (DMN 1.5 §10.3.2.13): comparisons of an input with values, ranges, lists and `?` expressions, and
 * their compiling (`- `, `not(...)`, `a, b, c`). */
import type { SyntaxNode } from "@lezer/common"
import { chargeWork } from "./FeelBudget.ts"
import type { CompiledTest, NodeCompiler } from "./FeelCompiled.ts"
import { FeelFunctionValue } from "./FeelFunctionValue.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { compileInterval } from "./FeelRangeCompile.ts"
import { children, operands, usesInput } from "./FeelSyntaxNodes.ts"
import { feelCompare, feelEquals, rangeIncludes } from "./FeelValues.ts"

export const asBoolean = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null)

export const compareWith = (op: string, a: unknown, b: unknown): boolean | null => {
  if (op === "=") return feelEquals(a, b)
  if (op === "!=") {
    const e = feelEquals(a, b)
    return e === null ? null : !e
  }
  if (a === null || b === null) return null
  const c = feelCompare(a, b)
  if (c === null) return null
  switch (op) {
    case "<":
      return c < 0
    case "<=":
      return c <= 0
    case ">":
      return c > 0
    case ">=":
      return c >= 0
    default:
      return null
  }
}

/** The generic unary test (DMN 1.5 §10.3.2.13): the input against the value of an expression. */
export const testAgainst = (input: unknown, v: unknown): boolean | null => {
  if (typeof v === "boolean" && typeof input !== "boolean") return v
  if (v instanceof FeelRangeValue) return rangeIncludes(v, input)
  if (Array.isArray(v)) {
    // the input against every element: work in proportion to the list, charged to the budget
    chargeWork(v.length)
    if (
      v.some((x) => (x instanceof FeelRangeValue ? rangeIncludes(x, input) === true : feelEquals(input, x) === true))
    ) return true
    return Array.isArray(input) ? feelEquals(input, v) : false
  }
  if (v instanceof FeelFunctionValue) return asBoolean(v.invoke([input]))
  return feelEquals(input, v)
}

/** A whole unary-tests text: `-`, `not(tests)` or positive tests. */
export const compileUnaryTests = (c: NodeCompiler, node: SyntaxNode): CompiledTest => {
  const kids = children(node)
  const first = kids[0]
  if (first === undefined) return () => null
  if (first.name === "Wildcard") return () => true
  if (first.name === "not") {
    const tests = kids.find((k) => k.name === "PositiveUnaryTests")
    if (tests === undefined) return () => null
    const t = compilePositiveTests(c, tests)
    return (s, input) => {
      const r = t(s, input)
      return r === null ? null : !r
    }
  }
  return compilePositiveTests(c, first)
}

/** `a, b, c`: true when one test is, null when none is and one cannot be decided. */
export const compilePositiveTests = (c: NodeCompiler, node: SyntaxNode): CompiledTest => {
  const tests = operands(node).map((k) => compilePositiveTest(c, k))
  if (tests.length === 1 && tests[0] !== undefined) return tests[0]
  return (s, input) => {
    let sawNull = false
    for (const t of tests) {
      const r = t(s, input)
      if (r === true) return true
      if (r === null) sawNull = true
    }
    return sawNull ? null : false
  }
}

export const compilePositiveTest = (c: NodeCompiler, node: SyntaxNode): CompiledTest => {
  let inner = node.name === "PositiveUnaryTest" ? operands(node)[0] : node
  // `x in (= 5)`: a parenthesised simple test is still a test.
  while (inner?.name === "ParenthesizedExpression" && operands(inner)[0]?.name === "SimplePositiveUnaryTest") {
    inner = operands(inner)[0]
  }
  if (inner === undefined) return () => null
  if (inner.name === "SimplePositiveUnaryTest") {
    const [first, second] = operands(inner)
    const opNode = children(inner).find((k) => k.name === "CompareOp")
    if (first?.name === "Interval") {
      const range = compileInterval(c, first)
      return (s, input) => {
        const r = range(s)
        return r instanceof FeelRangeValue ? rangeIncludes(r, input) : null
      }
    }
    const valueNode = opNode === undefined ? first : second
    if (valueNode === undefined) return () => null
    const op = opNode === undefined ? "=" : c.src(opNode)
    const v = c.expr(valueNode)
    if (!usesInput(valueNode)) return (s, input) => compareWith(op, input, v(s))
    return (s, input) => compareWith(op, input, v(s.child({ "?": input })))
  }
  const e = c.expr(inner)
  if (usesInput(inner)) {
    return (s, input) => asBoolean(e(s.child({ "?": input })))
  }
  return (s, input) => testAgainst(input, e(s))
}

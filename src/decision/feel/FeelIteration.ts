/** Iteration in FEEL: `for` (with `partial`), `some` and `every`, over lists, integer ranges and date ranges. */
import type { SyntaxNode } from "@lezer/common"
import * as feelin from "feelin"
import { arithmetic } from "./FeelArithmetic.ts"
import { chargeSteps } from "./FeelBudget.ts"
import type { Compiled, NodeCompiler } from "./FeelCompiled.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import type { FeelScope } from "./FeelScope.ts"
import { children, operands } from "./FeelSyntaxNodes.ts"
import { parseTemporalLiteral } from "./FeelTemporal.ts"

/** The values an iteration context runs over: a list, a range of integers (`1..3`, `[1..3]`), or a single value. */
const iterationValues = (from: unknown, to: unknown | undefined): unknown[] | null => {
  if (to !== undefined) return from instanceof feelin.FeelDate ? daySteps(from, to) : integerSteps(from, to, true, true)
  if (Array.isArray(from)) return from
  if (from instanceof FeelRangeValue) return integerSteps(from.start, from.end, from.startIncluded, from.endIncluded)
  return from === null ? null : [from]
}

const ONE_DAY = parseTemporalLiteral("P1D")

/** `for d in @"2021-01-01"..@"2021-01-03"`: the dates from one to the other, a day apart, either way. */
const daySteps = (from: feelin.FeelDate, to: unknown): unknown[] | null => {
  if (!(to instanceof feelin.FeelDate)) return null
  const out: unknown[] = []
  const step = from.iso <= to.iso ? "+" : "-"
  for (let d: unknown = from; d instanceof feelin.FeelDate && out.length <= 100_000; d = arithmetic(step, d, ONE_DAY)) {
    chargeSteps()
    out.push(d)
    if (d.iso === to.iso) return out
  }
  return null
}

const integerSteps = (from: unknown, to: unknown, fromIncluded: boolean, toIncluded: boolean): unknown[] | null => {
  if (!(from instanceof FeelNumber) || !(to instanceof FeelNumber) || !from.isInteger || !to.isInteger) return null
  const a = from.toSafeInteger()
  const b = to.toSafeInteger()
  if (a === undefined || b === undefined || Math.abs(b - a) > 1_000_000) return null
  chargeSteps(Math.abs(b - a) + 1)
  const step = a <= b ? 1 : -1
  const out: FeelNumber[] = []
  for (
    let i = fromIncluded ? a : a + step;
    step > 0 ? i < b || (toIncluded && i === b) : i > b || (toIncluded && i === b);
    i += step
  ) {
    out.push(FeelNumber.fromInt(i))
  }
  return out
}

interface Iteration {
  readonly name: string
  readonly values: (s: FeelScope) => unknown[] | null
}

const compileIterations = (c: NodeCompiler, inExpressions: SyntaxNode): Array<Iteration> =>
  operands(inExpressions).map((inExpr) => {
    const [nameNode, contextNode] = operands(inExpr)
    const name = nameNode === undefined ? "" : c.name(nameNode)
    if (contextNode === undefined) return { name, values: () => null }
    const parts = operands(contextNode).map((p) => c.expr(p))
    const [from, to] = parts
    if (from === undefined) return { name, values: () => null }
    return { name, values: (s: FeelScope) => iterationValues(from(s), to === undefined ? undefined : to(s)) }
  })

export const compileFor = (c: NodeCompiler, kids: SyntaxNode[]): Compiled => {
  const [inNode, bodyNode] = kids
  if (inNode === undefined || bodyNode === undefined) return () => null
  const iterations = compileIterations(c, inNode)
  const body = c.expr(bodyNode)
  // `partial` (the results so far) is copied for each iteration only when the body can read it: O(n²) otherwise.
  const usesPartial = c.src(bodyNode).includes("partial")
  return (s) => {
    const results: unknown[] = []
    const run = (k: number, scope: FeelScope): boolean => {
      const it = iterations[k]
      if (it === undefined) {
        // an iteration is a step; copying `partial` costs in proportion to the results so far
        if (!usesPartial) {
          chargeSteps()
          results.push(body(scope))
          return true
        }
        chargeSteps(1 + (results.length >> 5))
        results.push(body(scope.child({ partial: [...results] })))
        return true
      }
      const values = it.values(scope)
      if (values === null) return false
      for (const v of values) if (!run(k + 1, scope.child({ [it.name]: v }))) return false
      return true
    }
    return run(0, s) ? results : null
  }
}

export const compileQuantified = (c: NodeCompiler, node: SyntaxNode, kids: SyntaxNode[]): Compiled => {
  const every = children(node)[0]?.name === "every"
  const [inNode, bodyNode] = kids
  if (inNode === undefined || bodyNode === undefined) return () => null
  const iterations = compileIterations(c, inNode)
  const body = c.expr(bodyNode)
  return (s) => {
    let decided: boolean | null = every
    const run = (k: number, scope: FeelScope): boolean => {
      const it = iterations[k]
      if (it === undefined) {
        chargeSteps()
        const v = body(scope)
        if (every ? v !== true : v === true) {
          decided = !every
          return false
        }
        return true
      }
      const values = it.values(scope)
      if (values === null) {
        decided = null
        return false
      }
      for (const v of values) if (!run(k + 1, scope.child({ [it.name]: v }))) return false
      return true
    }
    run(0, s)
    return decided
  }
}

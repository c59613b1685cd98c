/** Compiling ranges: intervals (`[1..10)`) and the range a unary comparison stands for in an expression (`< 10`). */
import type { SyntaxNode } from "@lezer/common"
import type { Compiled, NodeCompiler } from "./FeelCompiled.ts"
import { FeelRangeValue, unaryRange } from "./FeelRange.ts"
import { children, operands } from "./FeelSyntaxNodes.ts"
import { feelCompare } from "./FeelValues.ts"

export const compileInterval = (c: NodeCompiler, node: SyntaxNode): Compiled => {
  const all = children(node)
  const startIncluded = all[0]?.name === "["
  const endIncluded = all[all.length - 1]?.name === "]"
  const [lo, hi] = operands(node).map((k) => c.expr(k))
  if (lo === undefined || hi === undefined) return () => null
  return (s) => {
    const a = lo(s)
    const b = hi(s)
    // Both ends must be given (an explicit null is not an open end) and of one ordered kind.
    if (a === null || b === null) return null
    const order = feelCompare(a, b)
    if (order === null || order > 0) return null
    return new FeelRangeValue(a, b, startIncluded, endIncluded)
  }
}

/** `< 10`, `>= x`, `= x` in an expression: a range (DMN 1.5 §10.3.2.7), see unaryRange. */
export const compileRangeLiteral = (c: NodeCompiler, kids: SyntaxNode[]): Compiled => {
  const [first, second] = kids
  if (first?.name === "Interval") return compileInterval(c, first)
  if (first?.name !== "CompareOp" || second === undefined) return () => null
  const op = c.src(first)
  const v = c.expr(second)
  return (s) => unaryRange(op, v(s))
}

/**
 * `range(from)` (DMN 1.5 §10.3.4.7): a range from its literal text, e.g. "[1..10)" or "[@\"2020-01-01\"..@\"2020-12-31\"]".
 * The ends must be literals (numbers, strings, temporal literals or constructors over a string literal), of one kind,
 * in ascending order; anything else gives null.
 */
import type { SyntaxNode } from "@lezer/common"
import { chargeChars } from "./FeelBudget.ts"
import { TEMPORAL_BUILTINS } from "./FeelBuiltinsTemporal.ts"
import type { Compiled, NodeCompiler } from "./FeelCompiled.ts"
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { isSyntaxError, parseFeel } from "./FeelParser.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { compileInterval } from "./FeelRangeCompile.ts"
import { FeelScope } from "./FeelScope.ts"
import { unescapeString } from "./FeelSyntaxNodes.ts"
import { parseTemporalLiteral } from "./FeelTemporal.ts"
import { feelCompare } from "./FeelValues.ts"

const isLiteralEnd = (node: SyntaxNode): boolean => {
  switch (node.name) {
    case "NumericLiteral":
    case "StringLiteral":
    case "null":
      return true
    case "DateTimeLiteral": {
      const at = node.getChild("AtLiteral")
      if (at !== null) return true
      const params = node.getChild("PositionalParameters")
      const args = params === null ? [] : params.getChildren("StringLiteral")
      const arg = args[0]
      return args.length === 1 && params !== null && arg !== undefined && params.from === arg.from &&
        params.to === arg.to
    }
    default:
      return false
  }
}

/**
 * The ends' values, as the compiler gives them for these literals — computed here rather than by the compiler, whose
 * built-ins include this one.
 */
const literalEnds = (text: string): NodeCompiler => {
  const src = (node: SyntaxNode) => text.slice(node.from, node.to)
  const constant = (value: unknown): Compiled => () => value
  return {
    src,
    name: (node) => src(node).trim(),
    expr: (node) => {
      switch (node.name) {
        case "NumericLiteral":
          return constant(FeelNumber.parse(src(node).replace(/\s+/g, "")))
        case "StringLiteral":
          return constant(unescapeString(src(node)))
        case "DateTimeLiteral": {
          // `@"…"`, or a constructor (date, time, date and time, duration) over one string literal (isLiteralEnd)
          const at = node.getChild("AtLiteral")?.firstChild
          if (at !== undefined) return constant(at === null ? null : parseTemporalLiteral(unescapeString(src(at))))
          const head = node.firstChild
          const constructor = head === null ? undefined : TEMPORAL_BUILTINS[src(head).replace(/\s+/g, " ")]
          const args = node.getChild("PositionalParameters")?.getChildren("StringLiteral") ?? []
          return constant(constructor?.invoke(args.map((arg) => unescapeString(src(arg)))) ?? null)
        }
        default:
          return constant(null)
      }
    }
  }
}

const rangeFromText = (text: string): unknown => {
  const tree = parseFeel(text, "expression", {})
  if (isSyntaxError(tree)) return null
  const interval = tree.topNode.getChild("SimplePositiveUnaryTest")?.getChild("Interval")
  if (interval === null || interval === undefined) return null
  const ends: SyntaxNode[] = []
  for (let c = interval.firstChild; c !== null; c = c.nextSibling) {
    if (!["[", "]", "(", ")", ".."].includes(c.name)) ends.push(c)
  }
  if (ends.length !== 2 || !ends.every(isLiteralEnd)) return null
  const value = compileInterval(literalEnds(text), interval)(FeelScope.of({}))
  if (!(value instanceof FeelRangeValue)) return null
  const { start, end } = value
  if (start === null && end === null) return null
  if (start !== null && end !== null && (feelCompare(start, end) ?? 1) > 0) return null
  return value
}

export const RANGE_LITERAL_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  range: builtin(signature(["from"], ([from]) => {
    if (typeof from !== "string") return null
    // parsed as FEEL text: work in proportion to its length
    chargeChars(from.length)
    return rangeFromText(from.trim())
  }))
}

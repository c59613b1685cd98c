/** Compiles a lezer-feel syntax tree into a tree of closures, once per text; evaluation then only runs closures over
 * a FeelScope. Semantics follow DMN 1.5 chapter 10: errors inside an expression give null, never an exception. */
import type { SyntaxNode, Tree } from "@lezer/common"
import * as feelin from "feelin"
import { arithmetic, type ArithOp, negate } from "./FeelArithmetic.ts"
import { chargeSteps, checkMade } from "./FeelBudget.ts"
import { BUILTINS } from "./FeelBuiltins.ts"
import { FeelFunctionValue, type FeelParameter } from "./FeelFunctionValue.ts"
import { externalFunction } from "./FeelJavaFunctions.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue, unaryRange } from "./FeelRange.ts"
import { FeelScope } from "./FeelScope.ts"
import { isTemporal, parseTemporalLiteral, temporalProperty } from "./FeelTemporal.ts"
import { conformsTo, parseTypeText } from "./FeelTypes.ts"
import { feelCompare, feelEquals, isContext, rangeIncludes } from "./FeelValues.ts"

export type Compiled = (scope: FeelScope) => unknown
/** A unary test: whether the input (also visible as `?`) passes; null when it cannot be decided. */
export type CompiledTest = (scope: FeelScope, input: unknown) => boolean | null

const PUNCTUATION = new Set([
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  "..",
  ":",
  "if",
  "then",
  "else",
  "for",
  "in",
  "return",
  "some",
  "every",
  "satisfies",
  "instance",
  "of",
  "function",
  "between",
  "and",
  "or",
  "external",
  "not",
  "->"
])

const children = (node: SyntaxNode): SyntaxNode[] => {
  const out: SyntaxNode[] = []
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (!c.type.isSkipped) out.push(c)
  return out
}

/** Children that carry meaning (no brackets, commas, keywords). */
const operands = (node: SyntaxNode): SyntaxNode[] => children(node).filter((c) => !PUNCTUATION.has(c.name))

/** A string literal's value: \" \' \\ \n \r \t \uXXXX \UXXXXXX are escapes; any other backslash stays (regex patterns). */
export const unescapeString = (literal: string): string =>
  literal
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}|["'\\nrt])/g, (_, e: string) => {
      if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16))
      return e === "n" ? "\n" : e === "r" ? "\r" : e === "t" ? "\t" : e
    })

const asBoolean = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null)

const compareWith = (op: string, a: unknown, b: unknown): boolean | null => {
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

/** Property access `v.name` (contexts, lists element-wise, temporal values, ranges). */
export const property = (v: unknown, name: string): unknown => {
  if (Array.isArray(v)) {
    chargeSteps(v.length)
    return v.map((x) => property(x, name))
  }
  if (isContext(v)) return Object.hasOwn(v, name) ? (v[name] ?? null) : null
  if (isTemporal(v)) return temporalProperty(v, name)
  if (v instanceof FeelRangeValue) {
    switch (name) {
      case "start":
        return v.start
      case "end":
        return v.end
      case "start included":
        return v.startIncluded
      case "end included":
        return v.endIncluded
    }
  }
  return null
}

/** The generic unary test (DMN 1.5 §10.3.2.13): the input against the value of an expression. */
export const testAgainst = (input: unknown, v: unknown): boolean | null => {
  if (typeof v === "boolean" && typeof input !== "boolean") return v
  if (v instanceof FeelRangeValue) return rangeIncludes(v, input)
  if (Array.isArray(v)) {
    if (
      v.some((x) => (x instanceof FeelRangeValue ? rangeIncludes(x, input) === true : feelEquals(input, x) === true))
    ) return true
    return Array.isArray(input) ? feelEquals(input, v) : false
  }
  if (v instanceof FeelFunctionValue) return asBoolean(v.invoke([input]))
  return feelEquals(input, v)
}

const usesInput = (node: SyntaxNode): boolean => {
  if (node.name === "?") return true
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (usesInput(c)) return true
  return false
}

export class FeelCompiler {
  private readonly text: string
  /** Type texts hidden from the parser (see Feel.ts), by placeholder index. */
  private readonly hiddenTypes: ReadonlyArray<string>

  constructor(text: string, hiddenTypes: ReadonlyArray<string> = []) {
    this.text = text
    this.hiddenTypes = hiddenTypes
  }

  private typeText(node: SyntaxNode): string {
    const text = this.src(node).trim()
    const hidden = /^__range_type_(\d+)$/.exec(text)
    return hidden === null ? text : (this.hiddenTypes[Number(hidden[1])] ?? text)
  }

  private src(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to)
  }

  compileExpressionTree(tree: Tree): Compiled {
    return this.expr(tree.topNode)
  }

  compileUnaryTestsTree(tree: Tree): CompiledTest {
    return this.unaryTests(tree.topNode)
  }

  private name(node: SyntaxNode): string {
    if (node.name === "StringLiteral") return unescapeString(this.src(node))
    const inner = node.firstChild
    if ((node.name === "Key" || node.name === "ParameterName") && inner !== null) return this.name(inner)
    return this.src(node).trim()
  }

  private expr(node: SyntaxNode): Compiled {
    const kids = operands(node)
    switch (node.name) {
      case "Expression":
      case "ParenthesizedExpression":
      case "PositiveUnaryTest":
      case "FunctionBody":
        return kids.length === 1 && kids[0] !== undefined ? this.expr(kids[0]) : () => null
      case "NumericLiteral": {
        const n = FeelNumber.parse(this.src(node).replace(/\s+/g, ""))
        return () => n
      }
      case "StringLiteral": {
        const s = unescapeString(this.src(node))
        return () => s
      }
      case "BooleanLiteral": {
        const b = this.src(node) === "true"
        return () => b
      }
      case "null":
        return () => null
      case "?":
        return (s) => s.lookup("?") ?? null
      case "VariableName": {
        const name = this.src(node)
        const builtin = BUILTINS[name]
        return (s) => {
          const v = s.lookup(name)
          return v !== undefined ? v : (builtin ?? null)
        }
      }
      case "SpecialFunctionName": {
        const fn = BUILTINS[this.src(node).replace(/\s+/g, " ")] ?? null
        return () => fn
      }
      case "QualifiedName":
        return this.expr(kids[0] ?? node)
      case "ArithmeticExpression":
        return this.arithmetic(node)
      case "Disjunction":
      case "Conjunction":
        return this.logic(node)
      case "Comparison":
        return this.comparison(node)
      case "IfExpression": {
        const [c, a, b] = kids.map((k) => this.expr(k))
        if (c === undefined || a === undefined || b === undefined) return () => null
        return (s) => (c(s) === true ? a(s) : b(s))
      }
      case "PathExpression": {
        const target = kids[0]
        const pathName = kids[kids.length - 1]
        if (target === undefined || pathName === undefined) return () => null
        const t = this.expr(target)
        const key = this.src(pathName).trim()
        return (s) => property(t(s), key)
      }
      case "FilterExpression":
        return this.filter(kids)
      case "FunctionInvocation":
        return this.invocation(kids[0], kids[1])
      case "DateTimeLiteral":
        return this.dateTimeLiteral(kids)
      case "List": {
        const items = kids.map((k) => this.expr(k))
        return (s) => checkMade(items.map((i) => i(s)))
      }
      case "Context":
        return this.context(kids)
      case "ForExpression":
        return this.forLoop(kids)
      case "QuantifiedExpression":
        return this.quantified(node, kids)
      case "InstanceOfExpression": {
        const value = kids[0]
        const typeNode = kids[kids.length - 1]
        if (value === undefined || typeNode === undefined) return () => null
        const v = this.expr(value)
        const type = parseTypeText(this.typeText(typeNode))
        if (type === undefined) return () => null
        return (s) => conformsTo(v(s), type, s.types) ?? false
      }
      case "FunctionDefinition":
        return this.functionDefinition(node, kids)
      case "SimplePositiveUnaryTest":
        return this.rangeLiteral(kids)
      case "Interval":
        return this.interval(node)
      default:
        return () => null
    }
  }

  private arithmetic(node: SyntaxNode): Compiled {
    const kids = children(node)
    if (kids.length === 2 && kids[0]?.name === "ArithOp") {
      const operand = kids[1]
      if (operand === undefined) return () => null
      const a = this.expr(operand)
      return (s) => negate(a(s))
    }
    const [left, opNode, right] = kids
    if (left === undefined || opNode === undefined || right === undefined) return () => null
    const op = this.src(opNode) as ArithOp
    const a = this.expr(left)
    const b = this.expr(right)
    return (s) => arithmetic(op, a(s), b(s))
  }

  private logic(node: SyntaxNode): Compiled {
    const [left, right] = operands(node)
    if (left === undefined || right === undefined) return () => null
    const a = this.expr(left)
    const b = this.expr(right)
    if (node.name === "Conjunction") {
      return (s) => {
        const x = asBoolean(a(s))
        if (x === false) return false
        const y = asBoolean(b(s))
        if (y === false) return false
        return x === true && y === true ? true : null
      }
    }
    return (s) => {
      const x = asBoolean(a(s))
      if (x === true) return true
      const y = asBoolean(b(s))
      if (y === true) return true
      return x === false && y === false ? false : null
    }
  }

  private comparison(node: SyntaxNode): Compiled {
    const all = children(node)
    const kids = operands(node)
    const left = kids[0]
    if (left === undefined) return () => null
    const a = this.expr(left)
    if (all.some((k) => k.name === "between")) {
      const [, lo, hi] = kids
      if (lo === undefined || hi === undefined) return () => null
      const l = this.expr(lo)
      const h = this.expr(hi)
      return (s) => {
        const v = a(s)
        const x = compareWith(">=", v, l(s))
        const y = compareWith("<=", v, h(s))
        return x === false || y === false ? false : x === true && y === true ? true : null
      }
    }
    if (all.some((k) => k.name === "in")) {
      const testNode = kids[1]
      if (testNode === undefined) return () => null
      const test = testNode.name === "PositiveUnaryTests" ? this.positiveTests(testNode) : this.positiveTest(testNode)
      return (s) => test(s, a(s))
    }
    const opNode = all.find((k) => k.name === "CompareOp")
    const right = kids[2] ?? kids[1]
    if (opNode === undefined || right === undefined) return () => null
    const op = this.src(opNode)
    const b = this.expr(right)
    return (s) => compareWith(op, a(s), b(s))
  }

  private filter(kids: SyntaxNode[]): Compiled {
    const [listNode, filterNode] = kids
    if (listNode === undefined || filterNode === undefined) return () => null
    const list = this.expr(listNode)
    const f = this.expr(filterNode)
    return (s) => {
      const v = list(s)
      if (v === null) return null
      const items = Array.isArray(v) ? v : [v]
      const itemScope = (item: unknown): FeelScope => s.child(isContext(item) ? { item, ...item } : { item })
      // A filter that is a number (evaluated once, e.g. `xs[1]` or `xs[-1]`) selects by position.
      const first = f(items.length > 0 ? itemScope(items[0]) : s)
      if (first instanceof FeelNumber) {
        const i = first.toSafeInteger()
        if (i === undefined || i === 0) return null
        return (i > 0 ? items[i - 1] : items[items.length + i]) ?? null
      }
      const out: unknown[] = []
      items.forEach((item, k) => {
        chargeSteps()
        if ((k === 0 ? first : f(itemScope(item))) === true) out.push(item)
      })
      return out
    }
  }

  private args(paramsNode: SyntaxNode | undefined): (s: FeelScope) => unknown[] | Record<string, unknown> {
    if (paramsNode === undefined) return () => []
    if (paramsNode.name === "NamedParameters") {
      const named = operands(paramsNode).map((p) => {
        const [n, v] = operands(p)
        return { name: n === undefined ? "" : this.name(n), value: v === undefined ? () => null : this.expr(v) }
      })
      return (s) => Object.fromEntries(named.map((p) => [p.name, p.value(s)]))
    }
    const positional = operands(paramsNode).map((p) => this.expr(p))
    return (s) => positional.map((p) => p(s))
  }

  private invocation(calleeNode: SyntaxNode | undefined, paramsNode: SyntaxNode | undefined): Compiled {
    if (calleeNode === undefined) return () => null
    const callee = this.expr(calleeNode)
    const args = this.args(paramsNode)
    return (s) => {
      const fn = callee(s)
      return fn instanceof FeelFunctionValue ? (fn.invoke(args(s)) ?? null) : null
    }
  }

  private dateTimeLiteral(kids: SyntaxNode[]): Compiled {
    const [head, params] = kids
    if (head === undefined) return () => null
    if (head.name === "AtLiteral") {
      const literal = head.firstChild
      const value = literal === null ? null : parseTemporalLiteral(unescapeString(this.src(literal)))
      return () => value
    }
    const fn = BUILTINS[this.src(head).replace(/\s+/g, " ")]
    const args = this.args(params)
    return (s) => (fn === undefined ? null : (fn.invoke(args(s)) ?? null))
  }

  private context(kids: SyntaxNode[]): Compiled {
    const entries = kids.map((entry) => {
      const [keyNode, valueNode] = operands(entry)
      return {
        key: keyNode === undefined ? "" : this.name(keyNode),
        value: valueNode === undefined ? () => null : this.expr(valueNode)
      }
    })
    return (s) => {
      const out: Record<string, unknown> = {}
      const local = s.child(out)
      for (const e of entries) {
        if (Object.hasOwn(out, e.key)) return null // duplicate keys are an error
        out[e.key] = e.value(local)
      }
      return out
    }
  }

  private iterations(inExpressions: SyntaxNode): Array<{ name: string; values: (s: FeelScope) => unknown[] | null }> {
    return operands(inExpressions).map((inExpr) => {
      const [nameNode, contextNode] = operands(inExpr)
      const name = nameNode === undefined ? "" : this.name(nameNode)
      if (contextNode === undefined) return { name, values: () => null }
      const parts = operands(contextNode).map((p) => this.expr(p))
      const [from, to] = parts
      if (from === undefined) return { name, values: () => null }
      return { name, values: (s: FeelScope) => iterationValues(from(s), to === undefined ? undefined : to(s)) }
    })
  }

  private forLoop(kids: SyntaxNode[]): Compiled {
    const [inNode, bodyNode] = kids
    if (inNode === undefined || bodyNode === undefined) return () => null
    const iterations = this.iterations(inNode)
    const body = this.expr(bodyNode)
    // `partial` (the results so far) is copied for each iteration only when the body can read it: O(n²) otherwise.
    const usesPartial = this.src(bodyNode).includes("partial")
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

  private quantified(node: SyntaxNode, kids: SyntaxNode[]): Compiled {
    const every = children(node)[0]?.name === "every"
    const [inNode, bodyNode] = kids
    if (inNode === undefined || bodyNode === undefined) return () => null
    const iterations = this.iterations(inNode)
    const body = this.expr(bodyNode)
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

  private functionDefinition(node: SyntaxNode, kids: SyntaxNode[]): Compiled {
    const paramsNode = kids.find((k) => k.name === "FormalParameters")
    const bodyNode = kids.find((k) => k.name === "FunctionBody")
    if (bodyNode === undefined) return () => null
    const parameters: FeelParameter[] = (paramsNode === undefined ? [] : operands(paramsNode)).map((p) => {
      const [n, t] = operands(p)
      return { name: n === undefined ? "" : this.name(n), type: t === undefined ? undefined : this.src(t) }
    })
    const body = this.expr(bodyNode)
    if (children(node).some((k) => k.name === "external")) return (s) => externalFunction(parameters, body(s))
    const types = parameters.map((p) => (p.type === undefined ? undefined : parseTypeText(p.type)))
    return (s) =>
      new FeelFunctionValue(parameters, (args) => {
        const vars: Record<string, unknown> = {}
        for (const [i, p] of parameters.entries()) {
          const arg = args[i] ?? null
          const type = types[i]
          // A typed parameter refuses a value of another type: the invocation gives null.
          if (type !== undefined && arg !== null && conformsTo(arg, type, s.types) === false) return null
          vars[p.name] = arg
        }
        return body(s.child(vars))
      })
  }

  /** `< 10`, `>= x`, `= x` in an expression: a range (DMN 1.5 §10.3.2.7), see unaryRange. */
  private rangeLiteral(kids: SyntaxNode[]): Compiled {
    const [first, second] = kids
    if (first?.name === "Interval") return this.interval(first)
    if (first?.name !== "CompareOp" || second === undefined) return () => null
    const op = this.src(first)
    const v = this.expr(second)
    return (s) => unaryRange(op, v(s))
  }

  private interval(node: SyntaxNode): Compiled {
    const all = children(node)
    const startIncluded = all[0]?.name === "["
    const endIncluded = all[all.length - 1]?.name === "]"
    const [lo, hi] = operands(node).map((k) => this.expr(k))
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

  private unaryTests(node: SyntaxNode): CompiledTest {
    const kids = children(node)
    const first = kids[0]
    if (first === undefined) return () => null
    if (first.name === "Wildcard") return () => true
    if (first.name === "not") {
      const tests = kids.find((k) => k.name === "PositiveUnaryTests")
      if (tests === undefined) return () => null
      const t = this.positiveTests(tests)
      return (s, input) => {
        const r = t(s, input)
        return r === null ? null : !r
      }
    }
    return this.positiveTests(first)
  }

  private positiveTests(node: SyntaxNode): CompiledTest {
    const tests = operands(node).map((k) => this.positiveTest(k))
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

  private positiveTest(node: SyntaxNode): CompiledTest {
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
        const range = this.interval(first)
        return (s, input) => {
          const r = range(s)
          return r instanceof FeelRangeValue ? rangeIncludes(r, input) : null
        }
      }
      const valueNode = opNode === undefined ? first : second
      if (valueNode === undefined) return () => null
      const op = opNode === undefined ? "=" : this.src(opNode)
      const v = this.expr(valueNode)
      if (!usesInput(valueNode)) return (s, input) => compareWith(op, input, v(s))
      return (s, input) => compareWith(op, input, v(s.child({ "?": input })))
    }
    const e = this.expr(inner)
    if (usesInput(inner)) {
      return (s, input) => asBoolean(e(s.child({ "?": input })))
    }
    return (s, input) => testAgainst(input, e(s))
  }
}

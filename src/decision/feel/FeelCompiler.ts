/** Compiles a lezer-feel syntax tree into a tree of closures, once per text; evaluation then only runs closures over
 * a FeelScope. Semantics follow DMN 1.5 chapter 10: errors inside an expression give null, never an exception. */
import type { SyntaxNode, Tree } from "@lezer/common"
import { arithmetic, type ArithOp, negate } from "./FeelArithmetic.ts"
import { chargeSteps, checkMade } from "./FeelBudget.ts"
import { BUILTINS } from "./FeelBuiltins.ts"
import type { Compiled, CompiledTest, NodeCompiler } from "./FeelCompiled.ts"
import { FeelFunctionValue, type FeelParameter } from "./FeelFunctionValue.ts"
import { compileFor, compileQuantified } from "./FeelIteration.ts"
import { externalFunction } from "./FeelJavaFunctions.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { compileInterval, compileRangeLiteral } from "./FeelRangeCompile.ts"
import type { FeelScope } from "./FeelScope.ts"
import { children, operands, unescapeString } from "./FeelSyntaxNodes.ts"
import { isTemporal, parseTemporalLiteral, temporalProperty } from "./FeelTemporal.ts"
import { conformsTo, parseTypeText } from "./FeelTypes.ts"
import {
  asBoolean,
  compareWith,
  compilePositiveTest,
  compilePositiveTests,
  compileUnaryTests
} from "./FeelUnaryTests.ts"
import { isContext } from "./FeelValues.ts"

export type { Compiled, CompiledTest } from "./FeelCompiled.ts"

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

export class FeelCompiler implements NodeCompiler {
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

  src(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to)
  }

  compileExpressionTree(tree: Tree): Compiled {
    return this.expr(tree.topNode)
  }

  compileUnaryTestsTree(tree: Tree): CompiledTest {
    return compileUnaryTests(this, tree.topNode)
  }

  name(node: SyntaxNode): string {
    if (node.name === "StringLiteral") return unescapeString(this.src(node))
    const inner = node.firstChild
    if ((node.name === "Key" || node.name === "ParameterName") && inner !== null) return this.name(inner)
    return this.src(node).trim()
  }

  expr(node: SyntaxNode): Compiled {
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
        return compileFor(this, kids)
      case "QuantifiedExpression":
        return compileQuantified(this, node, kids)
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
        return compileRangeLiteral(this, kids)
      case "Interval":
        return compileInterval(this, node)
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
      const test = testNode.name === "PositiveUnaryTests"
        ? compilePositiveTests(this, testNode)
        : compilePositiveTest(this, testNode)
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
}

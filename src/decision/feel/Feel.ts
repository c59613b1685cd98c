/**
 * FEEL evaluation for the decision core: our own evaluator (FeelCompiler) over feelin's grammar, with exact decimal
 * numbers (FeelNumber). Texts are parsed and compiled once and cached per text, dialect and the multi-word names
 * in scope that the text mentions.
 *
 * Results are values, never exceptions: a syntax error is `{ _tag: "FeelSyntaxError", position }`, an evaluation over
 * its budget (FeelBudget.ts) `{ _tag: "FeelLimitExceeded", limit, message }`.
 */
import { expressionTextProblem, FeelBudgetExceeded, type FeelLimits, withFeelBudget } from "./FeelBudget.ts"
import { type Compiled, type CompiledTest, FeelCompiler } from "./FeelCompiler.ts"
import { fromJson as fromJsonValue, toJson as toJsonValue } from "./FeelJson.ts"
import { type FeelDialect, type FeelSyntaxError, isSyntaxError, parseFeel } from "./FeelParser.ts"
import { FeelScope } from "./FeelScope.ts"

export type { Compiled, CompiledTest } from "./FeelCompiler.ts"
export type { FeelSyntaxError } from "./FeelParser.ts"
export { FeelScope } from "./FeelScope.ts"

export type FeelContext = Record<string, unknown>

export interface FeelOk {
  readonly _tag: "FeelOk"
  readonly value: unknown
  readonly warnings: ReadonlyArray<string>
}

/** The evaluation needed more than one of the limits allows; nothing of it is kept. */
export interface FeelLimitExceeded {
  readonly _tag: "FeelLimitExceeded"
  readonly limit: keyof FeelLimits
  readonly message: string
}

export type FeelResult = FeelOk | FeelSyntaxError | FeelLimitExceeded

/** Runs an evaluation under the FEEL budget; a budget exceeded becomes a FeelLimitExceeded value. */
export const budgeted = <A>(evaluate: () => A): A | FeelLimitExceeded => {
  try {
    return withFeelBudget(evaluate)
  } catch (error) {
    if (error instanceof FeelBudgetExceeded) {
      return { _tag: "FeelLimitExceeded", limit: error.limit, message: error.message }
    }
    if (error instanceof RangeError) {
      return {
        _tag: "FeelLimitExceeded",
        limit: "maxCallDepth",
        message: "the expression nests too deeply to evaluate"
      }
    }
    throw error
  }
}

const CACHE_LIMIT = 20_000
const cache = new Map<string, Compiled | CompiledTest | FeelSyntaxError>()

/**
 * lezer-feel cannot read `range<T>` types; each `range<...>` after `instance of` is swapped for a placeholder name
 * before parsing and restored when the type is read.
 */
const RANGE_TYPE = /(instance\s+of\s+)(range\s*<)/g
const hideRangeTypes = (text: string): { text: string; types: string[] } => {
  if (!text.includes("range")) return { text, types: [] }
  const types: string[] = []
  let out = ""
  let last = 0
  for (const m of text.matchAll(RANGE_TYPE)) {
    const start = (m.index ?? 0) + (m[1]?.length ?? 0)
    if (start < last) continue
    let depth = 0
    let end = start
    for (; end < text.length; end++) {
      if (text[end] === "<") depth++
      else if (text[end] === ">" && --depth === 0) break
    }
    if (depth !== 0) continue
    out += text.slice(last, start) + `__range_type_${types.length}`
    types.push(text.slice(start, end + 1))
    last = end + 1
  }
  return { text: out + text.slice(last), types }
}

const compile = (text: string, dialect: FeelDialect, scope: FeelScope): Compiled | CompiledTest | FeelSyntaxError => {
  const names = scope.complexNames().filter((n) => text.includes(n))
  const key = `${dialect}\u0000${names.join("\u0001")}\u0000${text}`
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  // Refused before parsing: a text too long or nested too deep would cost the parser and compiler (recursive) dearly.
  const refused = expressionTextProblem(text)
  if (refused !== undefined) {
    return { _tag: "FeelSyntaxError", message: refused, expression: text, position: { from: 0, to: text.length } }
  }
  const hidden = hideRangeTypes(text)
  const tracked = names.length === 0 ? {} : scope.flatten()
  const tree = parseFeel(hidden.text, dialect, tracked)
  let compiled: Compiled | CompiledTest | FeelSyntaxError
  if (isSyntaxError(tree)) compiled = { ...tree, expression: text }
  else {
    const compiler = new FeelCompiler(hidden.text, hidden.types)
    compiled = dialect === "expression" ? compiler.compileExpressionTree(tree) : compiler.compileUnaryTestsTree(tree)
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(key, compiled)
  return compiled
}

/** The compiled form of an expression, cached; evaluate it with `compiled(scope)`. */
export const compileExpression = (text: string, scope: FeelScope): Compiled | FeelSyntaxError =>
  compile(text, "expression", scope) as Compiled | FeelSyntaxError

/** The compiled form of unary tests (`-` matches anything), cached; run it with `compiled(scope, input)`. */
export const compileUnaryTests = (text: string, scope: FeelScope): CompiledTest | FeelSyntaxError => {
  const trimmed = text.trim()
  if (trimmed === "" || trimmed === "-") return () => true
  return compile(trimmed, "unaryTests", scope) as CompiledTest | FeelSyntaxError
}

/** Caller-supplied variables: JS numbers become decimals (deeply), the rest is kept. */
const variablesOf = (context: FeelContext): FeelContext =>
  Object.fromEntries(Object.entries(context).map(([k, v]) => [k, fromJsonValue(v, undefined)]))

/** Evaluates a FEEL expression; errors in the expression are values. Variables may hold JS numbers. */
export const evaluateExpression = (expression: string, context: FeelContext): FeelResult => {
  const scope = FeelScope.of(variablesOf(context))
  const compiled = compileExpression(expression, scope)
  if (isSyntaxError(compiled)) return compiled
  return budgeted((): FeelOk => ({ _tag: "FeelOk", value: compiled(scope) ?? null, warnings: [] }))
}

/**
 * Evaluates unary tests against the input value `?`. DMN 1.5 §8.3: "-" matches anything;
 * an expression that is not a test is compared with the input for equality.
 */
export const evaluateUnaryTests = (tests: string, input: unknown, context: FeelContext): FeelResult => {
  const scope = FeelScope.of(variablesOf(context))
  const compiled = compileUnaryTests(tests, scope)
  if (isSyntaxError(compiled)) return compiled
  return budgeted((): FeelOk => ({
    _tag: "FeelOk",
    value: compiled(scope, fromJsonValue(input ?? null, undefined)),
    warnings: []
  }))
}

/**
 * The API's FEEL evaluation: variables as JSON in, the result as JSON out (see FeelJson.ts for the mapping).
 */
export { fromJson, toJson } from "./FeelJson.ts"
export const evaluateFeel = (expression: string, variables: FeelContext): FeelResult => {
  const r = evaluateExpression(expression, variables)
  if (r._tag !== "FeelOk") return r
  const json = budgeted(() => toJsonValue(r.value))
  return typeof json === "object" && json !== null && (json as { _tag?: unknown })._tag === "FeelLimitExceeded"
    ? (json as FeelLimitExceeded)
    : { ...r, value: json }
}

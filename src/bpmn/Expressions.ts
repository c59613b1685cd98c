// FEEL for the process core (conditions, mappings, scripts, keys, timers): the same evaluator as decisions (exact
// decimals, compiled once per text), with variables and results as JSON. Zeebe's convention: a value starting with
// "=" is an expression, anything else a literal string.
import { evaluateFeel as evaluateJson } from "../decision/feel/Feel.ts"

export const isExpression = (value: string): boolean => value.trimStart().startsWith("=")
const body = (value: string): string => value.trimStart().replace(/^=/, "")

/** A syntax problem of the expression, or null when it parses. */
export const feelSyntaxProblem = (expression: string): string | null => {
  const result = evaluateJson(body(expression), {})
  return result._tag === "FeelSyntaxError" ? `FEEL syntax error at ${result.position.from}: ${result.message}` : null
}

export type FeelOutcome = { readonly ok: true; readonly value: unknown } | {
  readonly ok: false
  readonly message: string
}

/**
 * Evaluates an expression (or returns a literal) against the variables; never throws. As FEEL prescribes, an
 * expression that cannot be computed (a missing variable, a type mismatch) is null, not an error.
 */
export const evaluateFeel = (value: string, variables: Readonly<Record<string, unknown>>): FeelOutcome => {
  if (!isExpression(value)) return { ok: true, value }
  const result = evaluateJson(body(value), { ...variables })
  return result._tag === "FeelOk"
    ? { ok: true, value: result.value }
    : result._tag === "FeelLimitExceeded"
    ? { ok: false, message: `FEEL evaluation stopped: ${result.message}` }
    : { ok: false, message: `FEEL syntax error at ${result.position.from}: ${result.message}` }
}

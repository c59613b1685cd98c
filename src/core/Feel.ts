// FEEL for the process core (conditions, mappings, scripts) through feelin. Zeebe's convention: a value starting with
// "=" is an expression, anything else a literal string.
import { evaluate, SyntaxError as FeelSyntaxError } from "feelin"

export const isExpression = (value: string): boolean => value.trimStart().startsWith("=")
const body = (value: string): string => value.trimStart().replace(/^=/, "")

/** A syntax problem of the expression, or null when it parses. */
export const feelSyntaxProblem = (expression: string): string | null => {
  try {
    evaluate(body(expression), {})
    return null
  } catch (error) {
    if (error instanceof FeelSyntaxError) return `FEEL syntax error at ${error.position.from}: ${error.message}`
    return null
  }
}

export type FeelOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

/** Evaluates an expression (or returns a literal) against the variables; never throws. */
export const evaluateFeel = (value: string, variables: Readonly<Record<string, unknown>>): FeelOutcome => {
  if (!isExpression(value)) return { ok: true, value }
  try {
    const result = evaluate(body(value), { ...variables })
    return { ok: true, value: toJsonValue(result.value) }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/** FEEL values that are not JSON (dates, durations, functions) become their string form. */
const toJsonValue = (value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value
  if (Array.isArray(value)) return value.map(toJsonValue)
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]))
  }
  return String(value)
}

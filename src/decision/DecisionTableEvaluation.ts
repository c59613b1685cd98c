/** Decision tables (DMN 1.5 §8): the rules matching the inputs, and the hit policies that make the table's value. */
import { Abort, fail, feel } from "./DecisionErrors.ts"
import type { Expression, TableOutput } from "./DecisionModel.ts"
import { compileUnaryTests, type FeelScope } from "./feel/Feel.ts"
import { BUILTINS } from "./feel/FeelBuiltins.ts"
import { FeelNumber } from "./feel/FeelNumber.ts"
import { isSyntaxError } from "./feel/FeelParser.ts"
import { feelEquals } from "./feel/FeelValues.ts"

export interface RuleMatch {
  readonly index: number
  readonly ruleId: string
  readonly outputs: Record<string, unknown>
  readonly annotations: ReadonlyArray<string>
}

/** What evaluating a boxed expression gives: its value and, for a decision table, its inputs and matched rules. */
export interface TableOutcome {
  readonly value: unknown
  readonly inputs: ReadonlyArray<{ readonly id: string; readonly label: string; readonly value: unknown }>
  readonly matched: ReadonlyArray<RuleMatch>
}

const valueEquals = (a: unknown, b: unknown): boolean => feelEquals(a, b) === true

/** Output values list order for PRIORITY / OUTPUT ORDER: index of the value in the output's allowed values. */
const priorityOf = (output: TableOutput, value: unknown, scope: FeelScope): number => {
  if (output.allowedValues === undefined) return Number.MAX_SAFE_INTEGER
  const allowed = feel(`[${output.allowedValues}]`, scope)
  if (!Array.isArray(allowed)) return Number.MAX_SAFE_INTEGER
  const i = allowed.findIndex((v) => valueEquals(v, value))
  return i < 0 ? Number.MAX_SAFE_INTEGER : i
}

export const evaluateTable = (expr: Extract<Expression, { kind: "decisionTable" }>, ctx: FeelScope): TableOutcome => {
  const inputValues = expr.inputs.map((i) => ({ id: i.id, label: i.label, value: feel(i.expression, ctx) }))
  const matched: RuleMatch[] = []
  expr.rules.forEach((rule, index) => {
    const matches = rule.inputEntries.every((entry, k) => {
      const value = inputValues[k]?.value ?? null
      const test = compileUnaryTests(entry, ctx)
      if (isSyntaxError(test)) throw new Abort(fail("FEEL_SYNTAX", `${test.message} in rule ${rule.id}`))
      return test(ctx, value) === true
    })
    if (!matches) return
    const outputs: Record<string, unknown> = {}
    expr.outputs.forEach((o, k) => {
      outputs[o.name] = feel(rule.outputEntries[k] ?? "null", ctx)
    })
    matched.push({ index, ruleId: rule.id, outputs, annotations: rule.annotations })
  })
  const single = expr.outputs.length === 1
  if (matched.length === 0 && expr.outputs.some((o) => o.defaultOutput !== undefined)) {
    const outputs = Object.fromEntries(
      expr.outputs.map((o) => [o.name, o.defaultOutput === undefined ? null : feel(o.defaultOutput, ctx)])
    )
    return { value: single ? outputs[expr.outputs[0]?.name ?? ""] : outputs, inputs: inputValues, matched }
  }
  const shape = (m: RuleMatch): unknown => (single ? m.outputs[expr.outputs[0]?.name ?? ""] : m.outputs)
  const byPriority = (list: RuleMatch[]): RuleMatch[] =>
    [...list].sort((a, b) => {
      for (const o of expr.outputs) {
        const d = priorityOf(o, a.outputs[o.name], ctx) - priorityOf(o, b.outputs[o.name], ctx)
        if (d !== 0) return d
      }
      return a.index - b.index
    })
  let value: unknown = null
  switch (expr.hitPolicy) {
    case "UNIQUE":
      // DMN 1.5 §8.2.11: "Unique: no overlap is possible and all rules are disjoint."
      if (matched.length > 1) {
        throw new Abort(
          fail(
            "HIT_POLICY_VIOLATION",
            `Unique hit policy violated: rules ${
              matched.map((m) => m.ruleId || `#${m.index + 1}`).join(", ")
            } all match`,
            matched.map((m) => m.ruleId)
          )
        )
      }
      value = matched[0] ? shape(matched[0]) : null
      break
    case "ANY": {
      // "Any: there may be overlap, but all of the matching rules show equal output entries."
      const first = matched[0]
      if (first && matched.some((m) => !valueEquals(shape(m), shape(first)))) {
        throw new Abort(
          fail(
            "HIT_POLICY_VIOLATION",
            `Any hit policy violated: rules ${matched.map((m) => m.ruleId).join(", ")} disagree`,
            matched.map((m) => m.ruleId)
          )
        )
      }
      value = first ? shape(first) : null
      break
    }
    case "FIRST":
      value = matched[0] ? shape(matched[0]) : null
      break
    case "PRIORITY": {
      const top = byPriority(matched)[0]
      value = top ? shape(top) : null
      break
    }
    case "RULE ORDER":
      value = matched.map(shape)
      break
    case "OUTPUT ORDER":
      value = byPriority(matched).map(shape)
      break
    case "COLLECT": {
      const values = matched.map(shape)
      switch (expr.aggregation) {
        case undefined:
          value = values
          break
        case "COUNT":
          value = FeelNumber.fromInt(values.length)
          break
        case "SUM":
          value = values.length === 0 ? null : (BUILTINS["sum"]?.invoke([values]) ?? null)
          break
        case "MIN":
          value = values.length === 0 ? null : (BUILTINS["min"]?.invoke([values]) ?? null)
          break
        case "MAX":
          value = values.length === 0 ? null : (BUILTINS["max"]?.invoke([values]) ?? null)
          break
      }
      break
    }
  }
  return { value, inputs: inputValues, matched }
}

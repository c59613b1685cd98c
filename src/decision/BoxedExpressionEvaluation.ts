/** Boxed expressions (DMN 1.5 §10.2 and §10.3.2.9): literal expressions, decision tables, contexts, lists, relations,
 * invocations, function definitions and the DMN 1.5 conditional, iterators and filter. */
import { Abort, fail, feel } from "./DecisionErrors.ts"
import type { Expression, ItemDefinition } from "./DecisionModel.ts"
import { evaluateTable, type TableOutcome } from "./DecisionTableEvaluation.ts"
import type { FeelContext, FeelScope } from "./feel/Feel.ts"
import { BUILTINS } from "./feel/FeelBuiltins.ts"
import { FeelFunctionValue } from "./feel/FeelFunctionValue.ts"
import { javaFunctionOf } from "./feel/FeelJavaFunctions.ts"
import { isContext } from "./feel/FeelValues.ts"
import { coerceToType } from "./TypeConformance.ts"

/** The item definitions of the model being evaluated, for typeRef coercions. */
export type Items = ReadonlyArray<ItemDefinition>

/** A boxed function definition as a FEEL function (DMN 1.5 §10.3.2.9.4): arguments coerced to the parameters' types
 * and the result to the function's type, a value that does not conform being null; Java ones see FeelJavaFunctions. */
export const makeFunction = (
  expr: Extract<Expression, { kind: "function" }>,
  closure: FeelScope,
  items: Items,
  resultType: string | undefined,
  self?: { readonly name: string }
): FeelFunctionValue | null => {
  const params = expr.parameters.map((p) => ({ name: p.name, type: p.typeRef }))
  if (expr.functionKind === "Java") {
    return javaFunctionOf(params, expr.body && evaluateBoxed(expr.body, closure, items).value)
  }
  if (expr.functionKind !== "FEEL") return null
  const fn: FeelFunctionValue = new FeelFunctionValue(
    params,
    (args) => {
      const vars: FeelContext = {}
      for (const [i, p] of expr.parameters.entries()) {
        const arg = args[i] ?? null
        const coerced = coerceToType(arg, p.typeRef, items)
        // An argument that does not conform to its parameter's type makes the invocation fail.
        if (coerced === null && arg !== null) return null
        vars[p.name] = coerced
      }
      // The function's own name is visible inside its body, for recursive calls.
      const scope = (self === undefined ? closure : closure.child({ [self.name]: fn })).child(vars)
      const value = expr.body === undefined ? null : evaluateBoxed(expr.body, scope, items).value
      return coerceToType(value, resultType, items)
    },
    false,
    resultType
  )
  return fn
}

export const evaluateBoxed = (expr: Expression, ctx: FeelScope, items: Items): TableOutcome => {
  const plain = (value: unknown): TableOutcome => ({ value, inputs: [], matched: [] })
  switch (expr.kind) {
    case "literal":
      return plain(expr.text.trim() === "" ? null : coerceToType(feel(expr.text, ctx), expr.typeRef, items))
    case "decisionTable":
      return evaluateTable(expr, ctx)
    case "context": {
      let local = ctx
      const out: Record<string, unknown> = {}
      for (const entry of expr.entries) {
        const v = evaluateBoxed(entry.value, local, items).value
        if (entry.name === undefined) return plain(v)
        local = local.child({ [entry.name]: v })
        out[entry.name] = v
      }
      return plain(out)
    }
    case "list":
      return plain(expr.items.map((i) => evaluateBoxed(i, ctx, items).value))
    case "relation":
      return plain(
        expr.rows.map((row) =>
          Object.fromEntries(expr.columns.map((c, i) => [c, row[i] ? evaluateBoxed(row[i], ctx, items).value : null]))
        )
      )
    case "invocation": {
      const args: FeelContext = {}
      for (const b of expr.bindings) args[b.name] = b.value ? evaluateBoxed(b.value, ctx, items).value : null
      const callee = ctx.lookup(expr.callee) ?? BUILTINS[expr.callee]
      return plain(callee instanceof FeelFunctionValue ? (callee.invoke(args) ?? null) : null)
    }
    case "function":
      return plain(makeFunction(expr, ctx, items, undefined))
    case "conditional": {
      // A condition that is neither boolean nor null is an error.
      const condition = evaluateBoxed(expr.condition, ctx, items).value
      if (condition !== null && typeof condition !== "boolean") return plain(null)
      return plain(evaluateBoxed(condition === true ? expr.then : expr.else, ctx, items).value)
    }
    case "iterator": {
      const source = evaluateBoxed(expr.in, ctx, items).value
      if (source === null) return plain(null)
      const list = Array.isArray(source) ? source : [source]
      const results = list.map((x) => evaluateBoxed(expr.body, ctx.child({ [expr.variable]: x }), items).value)
      if (expr.iterator === "for") return plain(results)
      if (results.some((r) => r !== null && typeof r !== "boolean")) return plain(null)
      return plain(expr.iterator === "some" ? results.some((r) => r === true) : results.every((r) => r === true))
    }
    case "filter": {
      const source = evaluateBoxed(expr.in, ctx, items).value
      if (source === null) return plain(null)
      const list = Array.isArray(source) ? source : [source]
      const matches = list.map((x) =>
        evaluateBoxed(expr.match, ctx.child(isContext(x) ? { ...x, item: x } : { item: x }), items).value
      )
      if (matches.some((m) => m !== null && typeof m !== "boolean")) return plain(null)
      return plain(list.filter((_, i) => matches[i] === true))
    }
    case "unsupported":
      throw new Abort(fail("UNSUPPORTED", `unsupported expression ${expr.type}`))
  }
}

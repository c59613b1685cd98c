/** Evaluation of decisions, decision services and boxed expressions over a DecisionModel. Pure and deterministic;
 * failures (a Unique table with two matches, an Any table whose matches disagree, an unknown decision) are values. */
import type { Decision, DecisionModel, Expression, ItemDefinition, TableOutput } from "./DecisionModel.ts"
import { serviceFunction } from "./DecisionServiceFunction.ts"
import { compileExpression, compileUnaryTests, type FeelContext, FeelScope } from "./Feel.ts"
import { FeelBudgetExceeded, withFeelBudget } from "./FeelBudget.ts"
import { BUILTINS } from "./FeelBuiltins.ts"
import { FeelFunctionValue } from "./FeelFunctionValue.ts"
import { javaFunctionOf } from "./FeelJavaFunctions.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { isSyntaxError } from "./FeelParser.ts"
import { feelEquals, isContext } from "./FeelValues.ts"
import { coerceToType, typeResolverFor } from "./TypeConformance.ts"

export interface DecisionError {
  readonly _tag: "DecisionError"
  readonly code: "HIT_POLICY_VIOLATION" | "NOT_FOUND" | "FEEL_SYNTAX" | "UNSUPPORTED" | "LIMIT_EXCEEDED"
  readonly message: string
  readonly ruleIds?: ReadonlyArray<string>
}

export interface RuleMatch {
  readonly index: number
  readonly ruleId: string
  readonly outputs: Record<string, unknown>
  readonly annotations: ReadonlyArray<string>
}

export interface DecisionTrace {
  readonly decisionId: string
  readonly decisionName: string
  readonly inputs: ReadonlyArray<{ readonly id: string; readonly label: string; readonly value: unknown }>
  readonly matchedRules: ReadonlyArray<RuleMatch>
  readonly result: unknown
}

export interface EvaluationOk {
  readonly _tag: "EvaluationOk"
  readonly result: unknown
  /** Required decisions evaluated on the way, in evaluation order, then the decision itself. */
  readonly trace: ReadonlyArray<DecisionTrace>
}

export type Evaluation = EvaluationOk | DecisionError

const fail = (code: DecisionError["code"], message: string, ruleIds?: ReadonlyArray<string>): DecisionError =>
  ruleIds === undefined ? { _tag: "DecisionError", code, message } : { _tag: "DecisionError", code, message, ruleIds }

class Abort {
  readonly error: DecisionError
  constructor(error: DecisionError) {
    this.error = error
  }
}

const feel = (text: string, scope: FeelScope): unknown => {
  const compiled = compileExpression(text, scope)
  if (isSyntaxError(compiled)) throw new Abort(fail("FEEL_SYNTAX", `${compiled.message} at ${compiled.position.from}`))
  return compiled(scope) ?? null
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

/** JS numbers in caller-supplied variables become decimals (deeply); everything else is kept. */
const decimalsIn = (value: unknown): unknown => {
  if (typeof value === "number") return FeelNumber.fromNumber(value)
  if (Array.isArray(value)) return value.map(decimalsIn)
  if (isContext(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decimalsIn(v)]))
  return value
}

interface TableOutcome {
  readonly value: unknown
  readonly inputs: DecisionTrace["inputs"]
  readonly matched: ReadonlyArray<RuleMatch>
}

const evaluateTable = (expr: Extract<Expression, { kind: "decisionTable" }>, ctx: FeelScope): TableOutcome => {
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

/** The item definitions of the model being evaluated, for typeRef coercions. */
type Items = ReadonlyArray<ItemDefinition>

/** A boxed function definition as a FEEL function (DMN 1.5 §10.3.2.9.4): arguments coerced to the parameters' types
 * and the result to the function's type, a value that does not conform being null; Java ones see FeelJavaFunctions. */
const makeFunction = (
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

const evaluateBoxed = (expr: Expression, ctx: FeelScope, items: Items): TableOutcome => {
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

const knowledgeContext = (model: DecisionModel, ids: ReadonlyArray<string>, scope: FeelScope): FeelContext => {
  const out: FeelContext = {}
  for (const id of ids) {
    // An imported model's BKM or service is visible as `importName.elementName`.
    const imported = (model.imports ?? []).find((i) =>
      i.model !== undefined && !isLocal(model, id) && isLocal(i.model, id)
    )
    if (imported?.model !== undefined) {
      const entries = knowledgeContext(imported.model, [id], scope)
      const existing = out[imported.name]
      out[imported.name] = { ...(isContext(existing) ? existing : {}), ...entries }
      continue
    }
    const bkm = model.businessKnowledgeModels.find((b) => b.id === id)
    if (bkm !== undefined) {
      const inner = scope.child(knowledgeContext(model, bkm.requiredKnowledge, scope))
      if (bkm.logic?.kind === "function") {
        out[bkm.name] = makeFunction(bkm.logic, inner, model.itemDefinitions, bkm.typeRef, { name: bkm.name })
      }
      continue
    }
    const service = model.decisionServices.find((s) => s.id === id)
    if (service !== undefined) {
      out[service.name] = serviceFunction(model, service, (vars) => {
        const r = evaluateService(model, service.id, vars)
        return r._tag === "EvaluationOk" ? r.result : null
      })
    }
  }
  return out
}

/** Decisions are cached per evaluation by model and id (imported models may reuse ids). */
const cacheKey = (model: DecisionModel, id: string): string => `${model.namespace}#${id}`

const isLocal = (model: DecisionModel, id: string): boolean =>
  model.businessKnowledgeModels.some((b) => b.id === id) || model.decisionServices.some((s) => s.id === id)

const nameOfDecision = (model: DecisionModel, id: string): string =>
  model.decisions.find((d) => d.id === id)?.name ?? id

const runDecision = (
  model: DecisionModel,
  decision: Decision,
  inputs: FeelScope,
  cache: Map<string, unknown>,
  trace: DecisionTrace[]
): unknown => {
  const key = cacheKey(model, decision.id)
  if (cache.has(key)) return cache.get(key)
  const required: FeelContext = {}
  for (const reqId of decision.requiredDecisions) {
    const req = model.decisions.find((d) => d.id === reqId)
    if (req !== undefined) required[req.name] = runDecision(model, req, inputs, cache, trace)
    else if (!(decision.importedDecisions ?? []).some((i) => i.id === reqId)) {
      throw new Abort(fail("NOT_FOUND", `required decision ${reqId} not found`))
    }
  }
  for (const imported of decision.importedDecisions ?? []) {
    const modelImport = model.imports?.find((i) => i.namespace === imported.namespace)
    const importedDecision = modelImport?.model?.decisions.find((d) => d.id === imported.id)
    if (modelImport?.model === undefined || importedDecision === undefined) {
      throw new Abort(fail("NOT_FOUND", `required decision ${imported.namespace}#${imported.id} not found`))
    }
    const existing = required[modelImport.name]
    required[modelImport.name] = {
      ...(isContext(existing) ? existing : {}),
      [importedDecision.name]: runDecision(modelImport.model, importedDecision, inputs, cache, trace)
    }
  }
  const withDecisions = inputs.child(required)
  const knowledge = knowledgeContext(model, decision.requiredKnowledge, withDecisions)
  // An import name can carry both decisions and knowledge of that model: one context with both.
  for (const [name, value] of Object.entries(knowledge)) {
    const decisions = required[name]
    if (isContext(decisions) && isContext(value)) knowledge[name] = { ...decisions, ...value }
  }
  const scope = withDecisions.child(knowledge)
  const raw = decision.expression === undefined
    ? { value: null, inputs: [], matched: [] }
    : evaluateBoxed(decision.expression, scope, model.itemDefinitions)
  // DMN 1.5 §10.3.2.9.4: a decision's value that does not conform to its variable's typeRef becomes null.
  const outcome = { ...raw, value: coerceToType(raw.value, decision.typeRef, model.itemDefinitions) }
  cache.set(key, outcome.value)
  trace.push({
    decisionId: decision.id,
    decisionName: decision.name,
    inputs: outcome.inputs,
    matchedRules: outcome.matched,
    result: outcome.value
  })
  return outcome.value
}

/** The caller's variables as the root scope: numbers as decimals, input data coerced to their declared types. */
const inputScope = (model: DecisionModel, variables: FeelContext): FeelScope => {
  const vars: FeelContext = {}
  for (const [name, value] of Object.entries(variables)) {
    const typeRef = model.inputData.find((i) => i.name === name)?.typeRef
    vars[name] = coerceToType(decimalsIn(value), typeRef, model.itemDefinitions)
  }
  return FeelScope.of(vars, typeResolverFor(model.itemDefinitions))
}

/** Runs a whole evaluation under one FEEL budget (FeelBudget.ts); an evaluation over it fails as LIMIT_EXCEEDED. */
const guard = (run: () => EvaluationOk): Evaluation => {
  try {
    return withFeelBudget(run)
  } catch (error) {
    if (error instanceof Abort) return error.error
    if (error instanceof FeelBudgetExceeded) return fail("LIMIT_EXCEEDED", error.message)
    if (error instanceof RangeError) return fail("LIMIT_EXCEEDED", "the evaluation nests too deeply")
    throw error
  }
}

/** Evaluates a decision (by id or name) and, first, every decision it requires. */
export const evaluateDecision = (model: DecisionModel, decisionIdOrName: string, variables: FeelContext): Evaluation =>
  guard(() => {
    const decision = model.decisions.find((d) => d.id === decisionIdOrName) ??
      model.decisions.find((d) => d.name === decisionIdOrName)
    if (decision === undefined) throw new Abort(fail("NOT_FOUND", `decision ${decisionIdOrName} not found`))
    const trace: DecisionTrace[] = []
    const result = runDecision(model, decision, inputScope(model, variables), new Map(), trace)
    return { _tag: "EvaluationOk", result, trace }
  })

/** Evaluates a decision service: input decisions' values come from the variables (by decision name); the result is
 * the single output decision's value, or a context of all output decisions. */
export const evaluateService = (model: DecisionModel, serviceIdOrName: string, variables: FeelContext): Evaluation =>
  guard(() => {
    const service = model.decisionServices.find((s) => s.id === serviceIdOrName) ??
      model.decisionServices.find((s) => s.name === serviceIdOrName)
    if (service === undefined) throw new Abort(fail("NOT_FOUND", `decision service ${serviceIdOrName} not found`))
    const cache = new Map<string, unknown>()
    for (const id of service.inputDecisions) {
      cache.set(cacheKey(model, id), decimalsIn(variables[nameOfDecision(model, id)] ?? null))
    }
    const inputs = inputScope(model, variables)
    const trace: DecisionTrace[] = []
    const outputs: Record<string, unknown> = {}
    for (const id of service.outputDecisions) {
      const d = model.decisions.find((x) => x.id === id)
      if (d === undefined) throw new Abort(fail("NOT_FOUND", `decision ${id} not found`))
      outputs[d.name] = runDecision(model, d, inputs, cache, trace)
    }
    const names = Object.keys(outputs)
    // The service variable's type is the service's function type; its result must conform to that type's output.
    const serviceType = model.itemDefinitions.find((d) => d.name === service.typeRef?.replace(/^.*:/, ""))
    const resultType = serviceType?.functionOutputTypeRef ?? service.typeRef
    const result = coerceToType(
      names.length === 1 ? outputs[names[0] ?? ""] : outputs,
      resultType,
      model.itemDefinitions
    )
    return { _tag: "EvaluationOk", result, trace }
  })

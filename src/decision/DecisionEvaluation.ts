/** Evaluation of decisions and decision services over a DecisionModel: required decisions first, knowledge
 * requirements as functions, the caller's variables as the root scope. Pure and deterministic; failures (a Unique
 * table with two matches, an Any table whose matches disagree, an unknown decision) are values. */
import { evaluateBoxed, makeFunction } from "./BoxedExpressionEvaluation.ts"
import { Abort, type DecisionError, fail } from "./DecisionErrors.ts"
import type { Decision, DecisionModel } from "./DecisionModel.ts"
import { serviceFunction } from "./DecisionServiceFunction.ts"
import type { RuleMatch } from "./DecisionTableEvaluation.ts"
import { type FeelContext, FeelScope } from "./feel/Feel.ts"
import { FeelBudgetExceeded, withFeelBudget } from "./feel/FeelBudget.ts"
import { FeelNumber } from "./feel/FeelNumber.ts"
import { isContext } from "./feel/FeelValues.ts"
import { coerceToType, typeResolverFor } from "./TypeConformance.ts"

export type { DecisionError } from "./DecisionErrors.ts"
export type { RuleMatch } from "./DecisionTableEvaluation.ts"

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

/** JS numbers in caller-supplied variables become decimals (deeply); everything else is kept. */
const decimalsIn = (value: unknown): unknown => {
  if (typeof value === "number") return FeelNumber.fromNumber(value)
  if (Array.isArray(value)) return value.map(decimalsIn)
  if (isContext(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decimalsIn(v)]))
  return value
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

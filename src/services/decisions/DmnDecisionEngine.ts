// DecisionEngine over the DMN / FEEL core (src/decision): JSON inputs become FEEL values by the input data's typeRef,
// results become JSON; a Unique/Any hit-policy violation is 422 naming the rules; FEEL syntax errors are 400 with
// the position. Untrusted DMN XML is prechecked like BPMN (no DOCTYPE/entities, bounded size and depth).
import { Effect, Layer } from "effect"
import { MAX_INDEXED_NAME } from "../../bpmn/StoredRanges.ts"
import { precheckXml } from "../../bpmn/XmlPrecheck.ts"
import {
  type DecisionTrace,
  evaluateDecision,
  evaluateService,
  type Evaluation
} from "../../decision/DecisionEvaluation.ts"
import { type DecisionModel, resolveImports } from "../../decision/DecisionModel.ts"
import { serviceArgumentProblems } from "../../decision/DecisionServiceFunction.ts"
import { decisionTableFromJson, decisionTableToDmnXml } from "../../decision/DecisionTableJson.ts"
import { decisionModelProblems } from "../../decision/DmnModelCheck.ts"
import { importDmnXml } from "../../decision/DmnXmlImport.ts"
import { evaluateFeel, toJson } from "../../decision/feel/Feel.ts"
import { listFeelFunctions } from "../../decision/feel/FeelFunctions.ts"
import { inputsFromJson, toTypedJson } from "../../decision/TypedJson.ts"
import { BusinessError, ValidationError } from "../../schema/ApiErrors.ts"
import {
  DecisionEngine,
  decisionKeys,
  type Evaluation as EngineEvaluation,
  type ParsedDecisionModel
} from "./DecisionEngine.ts"

const invalid = (message: string, errors: ReadonlyArray<{ readonly field: string; readonly message: string }>) =>
  new ValidationError({ message, errors: errors.map((e) => ({ ...e, code: "INVALID_MODEL" })) })

const summarise = (model: DecisionModel): ParsedDecisionModel => {
  const keys = decisionKeys(model.decisions)
  const serviceKeys = decisionKeys(model.decisionServices)
  return {
    name: model.name || null,
    namespace: model.namespace || null,
    decisions: model.decisions.map((decision, i) => ({
      key: keys[i]!,
      id: decision.id,
      name: decision.name || null,
      kind: decision.expression === undefined
        ? "NONE"
        : decision.expression.kind === "decisionTable"
        ? "DECISION_TABLE"
        : decision.expression.kind.toUpperCase(),
      hitPolicy: decision.expression?.kind === "decisionTable" ? decision.expression.hitPolicy : null,
      requiredDecisions: decision.requiredDecisions,
      requiredInputs: decision.requiredInputs,
      outputNames: decision.expression?.kind === "decisionTable" ? decision.expression.outputs.map((o) => o.name) : [],
      versionTag: decision.versionTag ?? null
    })),
    services: model.decisionServices.map((service, i) => ({
      key: serviceKeys[i]!,
      id: service.id,
      name: service.name || null,
      outputDecisions: service.outputDecisions,
      encapsulatedDecisions: service.encapsulatedDecisions,
      inputDecisions: service.inputDecisions,
      inputData: service.inputData
    })),
    inputs: model.inputData.map((input) => ({ id: input.id, name: input.name, typeRef: input.typeRef ?? null })),
    imports: (model.imports ?? []).map((i) => ({ name: i.name, namespace: i.namespace })),
    // A decision (or decision service) without an id is evaluated under its key, so each is found by its key.
    handle: {
      ...model,
      decisions: model.decisions.map((d, i) => (d.id === "" ? { ...d, id: keys[i]! } : d)),
      decisionServices: model.decisionServices.map((s, i) => (s.id === "" ? { ...s, id: serviceKeys[i]! } : s))
    }
  }
}

/** Problems with the variables as a 400 naming each field. */
const refuse = (problems: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
  problems.length === 0 ? Effect.void : Effect.fail(
    new ValidationError({
      message: `invalid variables: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      errors: problems.map((p) => ({ field: `variables.${p.path}`, message: p.message, code: "INVALID_VALUE" }))
    })
  )

/** JSON variables as FEEL values, typed by the model (TypedJson.ts); a value that does not parse is a 400. */
const feelInputs = (model: DecisionModel, variables: Readonly<Record<string, unknown>>) => {
  const { problems, values } = inputsFromJson(model, variables)
  return Effect.as(refuse(problems), values)
}

const traceJson = (trace: ReadonlyArray<DecisionTrace>, toJson: (value: unknown) => unknown) =>
  trace.map((step) => ({
    decisionId: step.decisionId,
    decisionName: step.decisionName,
    inputs: step.inputs.map((input) => ({ ...input, value: toJson(input.value) })),
    matchedRules: step.matchedRules.map((rule) => ({ ...rule, outputs: toJson(rule.outputs) })),
    result: toJson(step.result)
  }))

const settle = (
  evaluation: Evaluation,
  trace: boolean,
  typed: boolean
): Effect.Effect<EngineEvaluation, BusinessError | ValidationError> => {
  if (evaluation._tag === "EvaluationOk") {
    const json = typed ? toTypedJson : toJson
    return Effect.succeed({
      result: json(evaluation.result),
      ...(trace ? { trace: traceJson(evaluation.trace, json) } : {})
    })
  }
  const matched = (evaluation.ruleIds ?? []).map((ruleId) => ({
    field: "rules",
    message: `rule ${ruleId} matched`,
    code: evaluation.code
  }))
  const errors = matched.length > 0
    ? matched
    : [{ field: "decision", message: evaluation.message, code: evaluation.code }]
  return evaluation.code === "FEEL_SYNTAX"
    ? Effect.fail(
      new ValidationError({
        message: evaluation.message,
        errors: [{ field: "expression", message: evaluation.message, code: evaluation.code }]
      })
    )
    : Effect.fail(new BusinessError({ message: evaluation.message, errors }))
}

/** Reads DMN XML into the evaluable model; `check`: refuse a model its evaluation could not run (DmnModelCheck.ts). */
const read = Effect.fnUntraced(function*(xml: string, check: boolean) {
  const precheck = precheckXml(xml)
  if (precheck.length > 0) {
    return yield* invalid(
      `the DMN document is refused: ${precheck[0]!.message}`,
      precheck.map((p) => ({ field: "dmn", message: p.message }))
    )
  }
  const imported = yield* Effect.promise(() => importDmnXml(xml))
  if (!imported.ok) {
    return yield* invalid(
      `the DMN document is invalid: ${imported.error.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      imported.error.map((p) => ({ field: p.path || "dmn", message: p.message }))
    )
  }
  // A library of business knowledge models or item definitions, for other models to import, has no decision.
  const m = imported.value
  if (
    m.decisions.length + m.businessKnowledgeModels.length + m.decisionServices.length +
        m.itemDefinitions.length ===
      0
  ) {
    return yield* invalid("the DMN document has no decision, business knowledge model or item definition", [{
      field: "dmn",
      message: "no decision, business knowledge model or item definition"
    }])
  }
  if (check) {
    const problems = decisionModelProblems(m)
    if (problems.length > 0) {
      const listed = problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`).join("; ")
      const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""
      return yield* invalid(
        `the DMN document is invalid: ${listed}${more}`,
        problems.map((p) => ({ field: p.path, message: p.message }))
      )
    }
  }
  const summary = summarise(m)
  const tooLong = check ? overlongKeys(summary) : []
  if (tooLong.length > 0) {
    return yield* invalid(
      `the DMN document is invalid: ${tooLong.map((p) => `${p.field}: ${p.message}`).join("; ")}`,
      tooLong
    )
  }
  return summary
})

/**
 * Decision keys (the DMN id, or the name of a decision without one) and version tags go to indexed columns: longer
 * than MAX_INDEXED_NAME (bpmn/StoredRanges.ts), the model is refused naming the decision, instead of failing to store.
 */
const overlongKeys = (model: ParsedDecisionModel) =>
  model.decisions.flatMap((d) => {
    const field = `decisions[${d.key.length > MAX_INDEXED_NAME ? `${d.key.slice(0, 40)}…` : d.key}]`
    const tooLong = (what: string, value: string | null | undefined) =>
      value != null && value.length > MAX_INDEXED_NAME
        ? [{ field, message: `${what} has ${value.length} characters: at most ${MAX_INDEXED_NAME} are allowed` }]
        : []
    return [
      ...tooLong(d.id === "" ? "the decision name" : "the decision id", d.key),
      ...tooLong("the version tag", d.versionTag)
    ]
  })

export const DmnDecisionEngine = {
  layer: Layer.succeed(DecisionEngine, {
    parse: (xml) => read(xml, true),
    load: (xml) => read(xml, false),
    link: (parsed, available) => ({
      ...parsed,
      handle: resolveImports(parsed.handle as DecisionModel, available.map((m) => m.handle as DecisionModel))
    }),
    fromTable: Effect.fnUntraced(function*(json) {
      const table = decisionTableFromJson(json)
      if (!table.ok) {
        return yield* invalid(
          `the decision table is invalid: ${table.error.map((p) => `${p.path || "/"}: ${p.message}`).join("; ")}`,
          table.error.map((p) => ({ field: p.path || "/", message: p.message }))
        )
      }
      const xml = yield* Effect.promise(() => decisionTableToDmnXml(table.value))
      return { xml, decisionId: table.value.id }
    }),
    evaluate: (parsed, decisionKey, variables, options) => {
      const model = parsed.handle as DecisionModel
      return Effect.flatMap(
        feelInputs(model, variables),
        (inputs) =>
          settle(
            evaluateDecision(model, decisionKey, inputs),
            options.trace,
            options.typed === true
          )
      )
    },
    evaluateService: (parsed, serviceId, variables, options) => {
      const model = parsed.handle as DecisionModel
      return feelInputs(model, variables).pipe(
        Effect.tap((inputs) => {
          // Called with the service's key, which is its id in the handle.
          const service = model.decisionServices.find((s) => s.id === serviceId) ??
            model.decisionServices.find((s) => s.name === serviceId)
          return service === undefined ? Effect.void : refuse(serviceArgumentProblems(model, service, inputs))
        }),
        Effect.flatMap((inputs) => settle(evaluateService(model, serviceId, inputs), false, options?.typed === true))
      )
    },
    feel: (expression, context) => {
      const outcome = evaluateFeel(expression, { ...context })
      if (outcome._tag === "FeelLimitExceeded") {
        return Effect.fail(
          new ValidationError({
            message: `FEEL evaluation stopped: ${outcome.message}`,
            errors: [{ field: "expression", message: outcome.message, code: "FEEL_LIMIT_EXCEEDED" }]
          })
        )
      }
      return outcome._tag === "FeelOk"
        ? Effect.succeed(outcome.value)
        : Effect.fail(
          new ValidationError({
            message: `FEEL syntax error at ${outcome.position.from}: ${outcome.message}`,
            errors: [{
              field: "expression",
              message: `${outcome.message} (characters ${outcome.position.from}-${outcome.position.to})`,
              code: "FEEL_SYNTAX"
            }]
          })
        )
    },
    functions: listFeelFunctions().map((fn) => ({ name: fn.name, parameters: fn.parameters }))
  })
}

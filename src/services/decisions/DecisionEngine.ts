// The port between the decision endpoints and the pure DMN / FEEL core: parse DMN XML into an evaluable model,
// turn a JSON decision table into DMN XML, evaluate decisions and decision services, evaluate FEEL.
import { Context, type Effect } from "effect"
import type { BusinessError, ValidationError } from "../../schema/ApiErrors.ts"

export interface DecisionSummary {
  /** The decision's key in the service: its DMN id, or (no id) its name; unique within a model (see decisionKeys). */
  readonly key: string
  /** The DMN id ("" when the decision has none). */
  readonly id: string
  readonly name: string | null
  /** DECISION_TABLE, LITERAL_EXPRESSION, CONTEXT, INVOCATION, ... */
  readonly kind: string
  readonly hitPolicy: string | null
  readonly requiredDecisions: ReadonlyArray<string>
  readonly requiredInputs: ReadonlyArray<string>
  /** Output column names of a decision table (empty for other expressions). */
  readonly outputNames: ReadonlyArray<string>
  /** Camunda's zeebe:versionTag of the decision (null: none). */
  readonly versionTag?: string | null
}

export interface DecisionServiceSummary {
  /** The DMN id, or for a service without one its name (suffixed "~2", ... when that is another service's id). */
  readonly key: string
  readonly id: string
  readonly name: string | null
  readonly outputDecisions: ReadonlyArray<string>
  readonly encapsulatedDecisions: ReadonlyArray<string>
  readonly inputDecisions: ReadonlyArray<string>
  readonly inputData: ReadonlyArray<string>
}

export interface InputDataSummary {
  readonly id: string
  readonly name: string
  readonly typeRef: string | null
}

export interface ParsedDecisionModel {
  readonly name: string | null
  readonly namespace: string | null
  readonly decisions: ReadonlyArray<DecisionSummary>
  readonly services: ReadonlyArray<DecisionServiceSummary>
  readonly inputs: ReadonlyArray<InputDataSummary>
  /** The models this one imports (DMN `import`): their elements are visible as `name.element`. */
  readonly imports: ReadonlyArray<{ readonly name: string; readonly namespace: string }>
  /** The evaluable model, opaque to everything but the engine. */
  readonly handle: unknown
}

export interface Evaluation {
  /** The decision's result as JSON. */
  readonly result: unknown
  /** With trace: matched rules, input values, outputs, required decisions on the way. */
  readonly trace?: unknown
}

export interface EvaluationOptions {
  readonly trace: boolean
  /** Results in the typed JSON form (dates, durations, ranges and inexact numbers as `{ "@type", "value" }`). */
  readonly typed?: boolean | undefined
}

export interface FeelFunction {
  readonly name: string
  readonly parameters: ReadonlyArray<string>
}

export interface DecisionEngineShape {
  /** A model entering the service: refused (400 naming each faulty element) when its evaluation could not run. */
  readonly parse: (xml: string) => Effect.Effect<ParsedDecisionModel, ValidationError>
  /**
   * A stored model, checked when it was stored: read without parse's checks, so that a model stored before a check
   * was added still loads (and fails only where its evaluation does).
   */
  readonly load: (xml: string) => Effect.Effect<ParsedDecisionModel, ValidationError>
  /** The model with its imports linked to the models of those namespaces among `available` (see DecisionImports.ts). */
  readonly link: (model: ParsedDecisionModel, available: ReadonlyArray<ParsedDecisionModel>) => ParsedDecisionModel
  readonly fromTable: (
    table: unknown
  ) => Effect.Effect<{ readonly xml: string; readonly decisionId: string }, ValidationError>
  readonly evaluate: (
    model: ParsedDecisionModel,
    /** The decision's key (DecisionSummary.key). */
    decisionKey: string,
    variables: Readonly<Record<string, unknown>>,
    options: EvaluationOptions
  ) => Effect.Effect<Evaluation, BusinessError | ValidationError>
  readonly evaluateService: (
    model: ParsedDecisionModel,
    serviceId: string,
    variables: Readonly<Record<string, unknown>>,
    options?: { readonly typed?: boolean | undefined }
  ) => Effect.Effect<Evaluation, BusinessError | ValidationError>
  readonly feel: (
    expression: string,
    context: Readonly<Record<string, unknown>>
  ) => Effect.Effect<unknown, ValidationError | BusinessError>
  readonly functions: ReadonlyArray<FeelFunction>
}

/**
 * Keys of a model's decisions (or decision services), in order: the DMN id; a decision without an id is keyed by its name; a key that
 * another decision of the model already has gets "~2", "~3", ... appended (names are unique in a DMN model, so
 * that only happens when a name equals another decision's id).
 */
export const decisionKeys = (decisions: ReadonlyArray<{ readonly id: string; readonly name: string }>): string[] => {
  const taken = new Set(decisions.map((d) => d.id).filter((id) => id !== ""))
  return decisions.map((d) => {
    if (d.id !== "") return d.id
    let key = d.name
    for (let n = 2; taken.has(key); n++) key = `${d.name}~${n}`
    taken.add(key)
    return key
  })
}

/** A decision of the model by key, else by DMN id, else by name. */
export const decisionByRef = (model: ParsedDecisionModel, ref: string): DecisionSummary | undefined =>
  model.decisions.find((d) => d.key === ref) ?? model.decisions.find((d) => d.id !== "" && d.id === ref) ??
    model.decisions.find((d) => d.name === ref)

/** A decision service of the model by key (its DMN id, or its name when it has none), else by DMN id, else by name. */
export const serviceByRef = (model: ParsedDecisionModel, ref: string): DecisionServiceSummary | undefined =>
  model.services.find((s) => s.key === ref) ?? model.services.find((s) => s.id !== "" && s.id === ref) ??
    model.services.find((s) => s.name === ref)

export class DecisionEngine extends Context.Service<DecisionEngine, DecisionEngineShape>()("flowcore/DecisionEngine") {}

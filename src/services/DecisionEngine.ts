// The port between the decision endpoints and the pure DMN / FEEL core: parse DMN XML into an evaluable model,
// turn a JSON decision table into DMN XML, evaluate decisions and decision services, evaluate FEEL.
import { Context, type Effect } from "effect"
import type { BusinessError, ValidationError } from "../schema/ApiErrors.ts"

export interface DecisionSummary {
  readonly id: string
  readonly name: string | null
  /** DECISION_TABLE, LITERAL_EXPRESSION, CONTEXT, INVOCATION, ... */
  readonly kind: string
  readonly hitPolicy: string | null
  readonly requiredDecisions: ReadonlyArray<string>
  readonly requiredInputs: ReadonlyArray<string>
  /** Output column names of a decision table (empty for other expressions). */
  readonly outputNames: ReadonlyArray<string>
}

export interface DecisionServiceSummary {
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
  /** The evaluable model, opaque to everything but the engine. */
  readonly handle: unknown
}

export interface Evaluation {
  /** The decision's result as JSON. */
  readonly result: unknown
  /** With trace: matched rules, input values, outputs, required decisions on the way. */
  readonly trace?: unknown
}

export interface FeelFunction {
  readonly name: string
  readonly parameters: ReadonlyArray<string>
}

export interface DecisionEngineShape {
  readonly parse: (xml: string) => Effect.Effect<ParsedDecisionModel, ValidationError>
  readonly fromTable: (
    table: unknown
  ) => Effect.Effect<{ readonly xml: string; readonly decisionId: string }, ValidationError>
  readonly evaluate: (
    model: ParsedDecisionModel,
    decisionId: string,
    variables: Readonly<Record<string, unknown>>,
    options: { readonly trace: boolean }
  ) => Effect.Effect<Evaluation, BusinessError | ValidationError>
  readonly evaluateService: (
    model: ParsedDecisionModel,
    serviceId: string,
    variables: Readonly<Record<string, unknown>>
  ) => Effect.Effect<Evaluation, BusinessError | ValidationError>
  readonly feel: (
    expression: string,
    context: Readonly<Record<string, unknown>>
  ) => Effect.Effect<unknown, ValidationError | BusinessError>
  readonly functions: ReadonlyArray<FeelFunction>
}

export class DecisionEngine extends Context.Service<DecisionEngine, DecisionEngineShape>()("flowcore/DecisionEngine") {}

// The port through which business rule tasks evaluate decisions: the latest version of a decision id in the tenant.
import { Context, Effect, Layer } from "effect"

export class DecisionNotEvaluated extends Error {
  override readonly name = "DecisionNotEvaluated"
}

export interface DecisionEvaluatorShape {
  /** The decision's whole result, and its output columns as separate variables. */
  readonly evaluateLatest: (
    tenantId: string,
    decisionId: string,
    variables: Readonly<Record<string, unknown>>
  ) => Effect.Effect<{ readonly result: unknown; readonly outputs: Readonly<Record<string, unknown>> }, DecisionNotEvaluated>
}

export class DecisionEvaluator extends Context.Service<DecisionEvaluator, DecisionEvaluatorShape>()("flowcore/DecisionEvaluator") {
  /**
   * This installation has no decision repository yet (DMN arrives with the decisions issue), so every decision id is
   * unknown and a business rule task raises an incident naming it.
   */
  static readonly layerWithoutDecisions = Layer.succeed(DecisionEvaluator, {
    evaluateLatest: (_tenantId, decisionId) =>
      Effect.fail(new DecisionNotEvaluated(`decision ${decisionId} not found: no decision with that id is deployed`))
  })
}

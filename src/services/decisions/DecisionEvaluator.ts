// The port through which business rule tasks evaluate decisions: the latest version of a decision id in the tenant.
import { Context, Effect, Layer } from "effect"
import { inTenant } from "../../auth/CurrentTenant.ts"
import { type DecisionBinding, Decisions } from "./Decisions.ts"

export class DecisionNotEvaluated extends Error {
  override readonly name = "DecisionNotEvaluated"
}

export interface DecisionEvaluatorShape {
  /** The decision's whole result (the tenant is given: business rule tasks run outside a request), and its output columns as separate variables. */
  readonly evaluateLatest: (
    tenantId: string,
    decisionId: string,
    variables: Readonly<Record<string, unknown>>,
    binding?: DecisionBinding
  ) => Effect.Effect<
    { readonly result: unknown; readonly outputs: Readonly<Record<string, unknown>> },
    DecisionNotEvaluated
  >
}

export class DecisionEvaluator
  extends Context.Service<DecisionEvaluator, DecisionEvaluatorShape>()("flowcore/DecisionEvaluator")
{
  /**
   * The latest deployed version of the decision. A table result that is a context (several output columns) gives one
   * variable per column; a single column's value goes under that column's name.
   */
  static readonly layer = Layer.effect(
    DecisionEvaluator,
    Effect.gen(function*() {
      const decisions = yield* Decisions
      return {
        evaluateLatest: (tenantId, decisionId, variables, binding) =>
          decisions.evaluateLatest(decisionId, variables, binding).pipe(
            inTenant(tenantId),
            Effect.map((evaluation) => ({
              result: evaluation.result,
              outputs:
                typeof evaluation.result === "object" && evaluation.result !== null && !Array.isArray(evaluation.result)
                  ? evaluation.result as Record<string, unknown>
                  : evaluation.outputName === null
                  ? {}
                  : { [evaluation.outputName]: evaluation.result }
            })),
            Effect.mapError((error) => new DecisionNotEvaluated(error.message))
          )
      }
    })
  )
}

// The deploy-time check of bindingType="deployment" (bpmn/DeploymentBinding.ts) as the API reports model problems: a
// 400 VALIDATION_ERROR with one entry per element that binds to a resource the deployment does not hold, the element
// id in `field`.
import { Effect } from "effect"
import { type DeployedTogether, deploymentBindingProblems } from "../../bpmn/DeploymentBinding.ts"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import { ValidationError } from "../../schema/ApiErrors.ts"

export const checkDeploymentBinding = (
  graphs: ReadonlyArray<ProcessGraph>,
  together: DeployedTogether
): Effect.Effect<void, ValidationError> => {
  const problems = graphs.flatMap((graph) => deploymentBindingProblems(graph, together))
  return problems.length === 0 ? Effect.void : Effect.fail(
    new ValidationError({
      message: `the deployment is incomplete: ${problems.map((p) => `${p.elementId}: ${p.message}`).join("; ")}`,
      errors: problems.map((p) => ({ field: p.elementId, message: p.message, code: "NOT_IN_DEPLOYMENT" }))
    })
  )
}

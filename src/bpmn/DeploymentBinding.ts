// bindingType="deployment" (Camunda 8.6+) on zeebe:calledElement, zeebe:calledDecision and zeebe:formDefinition: the
// called process, the decision or the form is the one deployed together with the calling process version, in the same
// POST /deployments. As Zeebe (BpmnDeploymentBindingValidator), a deployment is refused when such a resource is not in
// it — checked here for every element at any depth, with the element id and the missing id in each problem.
import type { Problem, ProcessGraph } from "./ProcessGraph.ts"

/** The ids a deployment holds: process ids, decision ids (of its DMN resources), form ids (of its forms). */
export interface DeployedTogether {
  readonly processes: ReadonlySet<string>
  readonly decisions: ReadonlySet<string>
  readonly forms: ReadonlySet<string>
}

/** Every element of the graph that binds by deployment to a resource the deployment does not hold. */
export const deploymentBindingProblems = (graph: ProcessGraph, together: DeployedTogether): ReadonlyArray<Problem> =>
  Object.values(graph.nodes).flatMap((node): ReadonlyArray<Problem> => {
    const missing = (what: string, id: string) => [{
      elementId: node.id,
      message: `${node.type} ${node.id} binds ${what} "${id}" by deployment (bindingType="deployment"), but this ` +
        `deployment holds no ${what} "${id}": deploy it in the same request`
    }]
    if (node.type === "callActivity" && node.call.binding === "deployment") {
      return together.processes.has(node.call.processId) ? [] : missing("process", node.call.processId)
    }
    if (node.type === "businessRuleTask" && node.decision.binding === "deployment") {
      return together.decisions.has(node.decision.decisionId) ? [] : missing("decision", node.decision.decisionId)
    }
    if (node.type === "userTask" && node.userTask.formBinding === "deployment" && node.userTask.formKey !== null) {
      return together.forms.has(node.userTask.formKey) ? [] : missing("form", node.userTask.formKey)
    }
    return []
  })

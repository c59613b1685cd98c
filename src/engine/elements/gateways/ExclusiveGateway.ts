// Exclusive gateways (BPMN 13.3.2): the first outgoing flow, in order, whose condition is true; else the default flow;
// else an incident. In Play a step may choose the flow.
import { evaluateFeel, isExpression } from "../../../bpmn/Expressions.ts"
import type { ActivateElement } from "../Element.ts"

export const exclusiveGateway: ActivateElement = ({ run, token, node, visible }) => {
  const chosen = run.chosenFlow(node)
  if (chosen !== undefined) return run.leave(token, node, [chosen])
  for (const flowId of node.outgoing) {
    if (flowId === node.defaultFlow) continue
    const condition = run.flow(flowId).condition
    if (condition === null) return run.leave(token, node, [flowId])
    const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
    if (!outcome.ok) {
      return run.raiseIncident(token, "CONDITION_ERROR", `condition of flow ${flowId} failed: ${outcome.message}`)
    }
    if (outcome.value === true) return run.leave(token, node, [flowId])
  }
  if (node.defaultFlow !== null) return run.leave(token, node, [node.defaultFlow])
  return run.raiseIncident(
    token,
    "CONDITION_ERROR",
    `no outgoing flow of gateway ${node.id} has a true condition and there is no default flow`
  )
}

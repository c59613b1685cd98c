// Script tasks (zeebe:script): a FEEL expression whose value becomes the result variable; a failure is an incident.
import { evaluateFeel, isExpression } from "../../../bpmn/Expressions.ts"
import type { ScriptTaskNode } from "../../../bpmn/ProcessGraph.ts"
import type { ActivateElement } from "../Element.ts"

export const scriptTask: ActivateElement<ScriptTaskNode> = ({ run, token, node, visible }) => {
  const script = node.script
  const outcome = evaluateFeel(isExpression(script.expression) ? script.expression : `=${script.expression}`, visible)
  if (!outcome.ok) {
    return run.raiseIncident(token, "EXPRESSION_ERROR", `script of ${node.id} failed: ${outcome.message}`)
  }
  return run.finishActivity(token, node, { [script.resultVariable]: outcome.value })
}

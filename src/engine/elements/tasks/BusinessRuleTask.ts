// Business rule tasks: the decision is evaluated outside the core (it reads deployed decisions); the token waits for
// the answer.
import type { BusinessRuleTaskNode } from "../../../bpmn/ProcessGraph.ts"
import type { ActivateElement } from "../Element.ts"

export const businessRuleTask: ActivateElement<BusinessRuleTaskNode> = ({ run, token, node, visible }) => {
  run.emit({
    type: "DecisionRequested",
    tokenId: token.id,
    nodeId: node.id,
    evaluationId: run.newId("decision"),
    decisionId: node.decision.decisionId,
    ...(node.decision.versionTag == null ? {} : { versionTag: node.decision.versionTag }),
    ...(node.decision.binding === undefined ? {} : { binding: node.decision.binding }),
    variables: visible
  })
}

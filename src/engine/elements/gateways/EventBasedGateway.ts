// Event-based gateways (BPMN 13.3.5): the gateway waits for the first of the catch events after it; the others are
// withdrawn.
import type { ActivateElement } from "../Element.ts"

export const eventBasedGateway: ActivateElement = ({ run, token, node }) => {
  run.openBoundaries(token, token, node.outgoing.map((flowId) => run.flow(flowId).target), { viaGateway: true })
}

// Inclusive gateways: the fork takes every flow whose condition holds (else the default); the join waits, and
// behaviours/InclusiveGateways.ts decides when nothing more can arrive.
import type { ActivateElement } from "../Element.ts"

export const inclusiveGateway: ActivateElement = ({ run, token, node }) => {
  if (node.incoming.length <= 1) return run.inclusiveFork(token, node)
  run.emit({ type: "JoinArrived", tokenId: token.id, nodeId: node.id })
}

// Parallel gateways: a fork takes every outgoing flow; a join (BPMN 13.3.3) fires once a token has arrived on every
// incoming flow.
import type { Token } from "../../InstanceState.ts"
import type { ActivateElement } from "../Element.ts"

export const parallelGateway: ActivateElement = ({ run, token, node }) => {
  if (node.incoming.length <= 1) return run.leave(token, node, node.outgoing)
  run.emit({ type: "JoinArrived", tokenId: token.id, nodeId: node.id })
  const arrived = Object.values(run.state.tokens).filter((t) => t.nodeId === node.id && t.wait?.kind === "join")
  const pick = node.incoming.map((flowId) => arrived.find((t) => t.viaFlow === flowId))
  if (pick.some((t) => t === undefined)) return
  const consumed = pick as Array<Token>
  for (const other of consumed.slice(1)) run.emit({ type: "ElementCompleted", tokenId: other.id, nodeId: node.id })
  return run.leave(consumed[0]!, node, node.outgoing)
}

// An end event is done (its end listeners too): a terminate one ends its scope, which completes when nothing is left.
import type { EndEventNode } from "../../../bpmn/ProcessGraph.ts"
import type { Token } from "../../InstanceState.ts"
import type { Run } from "../../Run.ts"

export function finishEndEvent(run: Run, token: Token, node: EndEventNode): void {
  run.emit({ type: "ElementCompleted", tokenId: token.id, nodeId: node.id })
  if (node.terminate) run.terminateScope(token.scopeId)
  return run.completeScopeIfDone(token.scopeId)
}

// Embedded subprocesses: a variable scope of their own (their input mappings are its local variables), entered at
// their start event.
import type { ActivateElement } from "../Element.ts"

export const subProcess: ActivateElement = ({ run, token, node, locals }) => {
  const scopeId = run.newId("scope")
  run.emit({
    type: "ScopeOpened",
    scopeId,
    parentScopeId: token.scopeId,
    nodeId: node.id,
    tokenId: token.id,
    variables: { ...run.state.nodeVariables[node.id], ...locals }
  })
  return run.enter(node.startNodeIds[0]!, null, scopeId)
}

// Embedded subprocesses: a variable scope of their own (their input mappings are its local variables), entered at
// their start event.
import type { SubProcessNode } from "../../../bpmn/ProcessGraph.ts"
import type { Token } from "../../InstanceState.ts"
import type { Run } from "../../Run.ts"
import type { ActivateElement, Arrival, Variables } from "../Element.ts"

/** Opens the container's scope: the element's own variables, its input mappings' results, and what it adds. */
export function openScope(run: Run, token: Token, node: Arrival["node"], locals: Variables, extra: Variables = {}) {
  const scopeId = run.newId("scope")
  run.emit({
    type: "ScopeOpened",
    scopeId,
    parentScopeId: token.scopeId,
    nodeId: node.id,
    tokenId: token.id,
    variables: { ...run.state.nodeVariables[node.id], ...locals, ...extra }
  })
  return scopeId
}

export const subProcess: ActivateElement<SubProcessNode> = ({ run, token, node, locals }) =>
  run.enter(node.startNodeIds[0]!, null, openScope(run, token, node, locals))

// Activating a token at its node: first what every element shares — boundary events armed while it runs, a
// multi-instance activity unfolded into its body, input mappings applied — then the element's own behaviour from the
// registry (Registry.ts).
import { boundaryIdsOf, isActivity } from "../../bpmn/GraphNodes.ts"
import { startListenersPending } from "../behaviours/Listeners.ts"
import { visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"
import { activateElement } from "./Registry.ts"

export function activate(run: Run, tokenId: string): void {
  const token = run.state.tokens[tokenId]
  if (token === undefined) return
  const node = run.node(token.nodeId)
  // Start execution listeners run first, seeing the input mappings' results; the element runs once they all have.
  if (node.listeners !== undefined && token.listenersDone === undefined && (token.loop ?? null) === null) {
    const seen = { ...visibleVariables(run.state, token.scopeId), ...run.state.nodeVariables[node.id], ...token.locals }
    const mapped = run.mapped(token, node.inputs, seen, "input")
    if (mapped === null || startListenersPending(run, token, node, { ...seen, ...mapped })) return
  }
  // Boundary events are armed while their host runs (for a multi-instance activity: its body).
  const boundaryIds = boundaryIdsOf(node)
  if (boundaryIds.length > 0 && (token.loop ?? null) === null && !run.openBoundaries(token, token, boundaryIds)) return
  // A multi-instance activity first becomes its body; each iteration is a token of its own (with loop set).
  if (isActivity(node) && node.multiInstance !== null && (token.loop ?? null) === null) {
    return run.startMultiInstance(token, node, node.multiInstance)
  }
  const outer = { ...visibleVariables(run.state, token.scopeId), ...run.state.nodeVariables[node.id], ...token.locals }
  const locals = run.mapped(token, node.inputs, outer, "input")
  if (locals === null) return
  return activateElement(node.type, { run, token, node, visible: { ...outer, ...locals }, locals })
}

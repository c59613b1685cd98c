// Activating an element of an ad-hoc subprocess (Camunda 8.8's inner instances): each activation — named by
// `activeElementsCollection` or by the worker's result — gets a scope of its own inside the subprocess's scope, held
// by a token at the subprocess's node. The activation's variables (the worker's `variables` for that element) are
// that scope's local variables; the element and what follows it by sequence flows run inside it; when its last path
// ends, the scope closes (AdHocCompletion.ts: activationCompleted) and the subprocess's completion rules decide.
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import type { Scope, Token } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

/** Opens an activation scope in the ad-hoc subprocess's scope and enters the element inside it. */
export function activateInAdHoc(
  run: Run,
  adHocScopeId: string,
  elementId: string,
  variables: Readonly<Record<string, unknown>> = {}
): void {
  const node = nodeOf(run.graph, run.state.scopes[adHocScopeId]!.nodeId, "adHocSubProcess")
  const tokenId = run.newId("token")
  run.emit({ type: "ElementActivated", tokenId, nodeId: node.id, scopeId: adHocScopeId, viaFlow: null })
  const scopeId = run.newId("scope")
  run.emit({ type: "ScopeOpened", scopeId, parentScopeId: adHocScopeId, nodeId: node.id, tokenId, variables })
  run.enter(elementId, null, scopeId)
}

/** Whether the scope is an activation's (inside the ad-hoc subprocess's own scope, at the same node). */
export const isActivationScope = (run: Run, scope: Scope | undefined): boolean =>
  scope !== undefined && run.state.scopes[scope.parentId]?.nodeId === scope.nodeId &&
  run.node(scope.nodeId).type === "adHocSubProcess"

/** Whether the token holds an activation (it sits at the ad-hoc subprocess's node, inside its scope). */
export const holdsActivation = (run: Run, token: Token): boolean =>
  token.wait?.kind === "subprocess" && isActivationScope(run, run.state.scopes[token.wait.scopeId])

// When an element directly inside an ad-hoc subprocess completes: if that ended its path, the path's output element is
// collected; then the completion condition decides. True: the subprocess completes — at once, terminating the paths still running (cancelRemainingInstances, the
// default), or once they have ended. Without a condition it completes when no path is left. Otherwise it waits (as in
// Camunda 8.8, a subprocess with nothing left to run and a condition that does not hold stays active).
import { evaluateFeel } from "../../bpmn/Expressions.ts"
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import { type Scope, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"
import { askWorker, isController } from "./AdHocWorker.ts"
import { liftCompensable } from "./Compensation.ts"

/** The output element evaluated where a path ended: false if it failed (an incident on the subprocess). */
const outputOf = (run: Run, adHocScope: Scope, fromScopeId: string): { value: unknown } | null | false => {
  const node = nodeOf(run.graph, adHocScope.nodeId, "adHocSubProcess")
  const { outputCollection, outputElement } = node.adHoc
  if (outputCollection === null || outputElement === null) return null
  const element = evaluateFeel(outputElement, visibleVariables(run.state, fromScopeId))
  if (element.ok) return { value: element.value }
  run.raiseIncident(run.state.tokens[adHocScope.tokenId]!, "EXTRACT_VALUE_ERROR", `outputElement: ${element.message}`)
  return false
}

const collect = (run: Run, adHocScopeId: string, output: { value: unknown }) => {
  const scope = run.state.scopes[adHocScopeId]!
  const collection = nodeOf(run.graph, scope.nodeId, "adHocSubProcess").adHoc.outputCollection!
  const collected = scope.variables[collection]
  run.emit({
    type: "VariablesSet",
    nodeId: scope.nodeId,
    scopeId: adHocScopeId,
    variables: { [collection]: [...(Array.isArray(collected) ? collected : []), output.value] }
  })
}

/**
 * An activation's last path ended: its output element is evaluated in its scope, the scope closes (its compensation
 * records go to the subprocess's scope), the token holding it completes, and the completion rules decide.
 */
export function activationCompleted(run: Run, activation: Scope): void {
  const adHocScopeId = activation.parentId
  const output = outputOf(run, run.state.scopes[adHocScopeId]!, activation.id)
  if (output === false) return
  liftCompensable(run, activation)
  run.emit({ type: "ScopeClosed", scopeId: activation.id, nodeId: activation.nodeId })
  run.emit({ type: "ElementCompleted", tokenId: activation.tokenId, nodeId: activation.nodeId })
  if (output !== null) collect(run, adHocScopeId, output)
  adHocElementCompleted(run, adHocScopeId, true, false)
}

/**
 * An element directly inside completed (pathEnded: its path ended there). `collectOutput`: the path ran in the
 * subprocess's own scope (instances started before activations had scopes of their own), so its output is collected
 * here.
 */
export function adHocElementCompleted(run: Run, scopeId: string, pathEnded: boolean, collectOutput = pathEnded): void {
  const scope = run.state.scopes[scopeId]!
  const node = nodeOf(run.graph, scope.nodeId, "adHocSubProcess")
  const adHoc = node.adHoc
  const host = run.state.tokens[scope.tokenId]!
  if (collectOutput) {
    const output = outputOf(run, scope, scopeId)
    if (output === false) return
    if (output !== null) collect(run, scopeId, output)
  }
  // The worker's job is held by a controller token: it is not a path.
  const running = () => Object.values(run.state.tokens).some((t) => t.scopeId === scopeId && !isController(run, t))
  if (node.job !== null) {
    if (!scope.adHocFulfilled) return pathEnded ? askWorker(run, scopeId, node.job) : undefined
    return running() ? undefined : run.closeScope(scopeId)
  }
  let fulfilled = !running()
  if (adHoc.completionCondition !== null) {
    const condition = evaluateFeel(adHoc.completionCondition, visibleVariables(run.state, scopeId))
    if (!condition.ok) {
      return run.raiseIncident(host, "EXTRACT_VALUE_ERROR", `completionCondition: ${condition.message}`)
    }
    if (condition.value !== true && condition.value !== false && condition.value !== null) {
      return run.raiseIncident(
        host,
        "EXTRACT_VALUE_ERROR",
        `completionCondition of ${node.id} must be a boolean; got ${JSON.stringify(condition.value)}`
      )
    }
    fulfilled = condition.value === true
  }
  if (!fulfilled) return
  if (running()) {
    if (!adHoc.cancelRemainingInstances) return
    run.terminateScope(scopeId)
  }
  run.closeScope(scopeId)
}

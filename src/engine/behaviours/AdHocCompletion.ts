// When an element directly inside an ad-hoc subprocess completes: if that ended its path, the path's output element is
// collected; then the completion condition decides. True: the subprocess completes — at once, terminating the paths still running (cancelRemainingInstances, the
// default), or once they have ended. Without a condition it completes when no path is left. Otherwise it waits (as in
// Camunda 8.8, a subprocess with nothing left to run and a condition that does not hold stays active).
import { evaluateFeel } from "../../bpmn/Expressions.ts"
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import { visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"
import { askWorker, isController } from "./AdHocWorker.ts"

export function adHocElementCompleted(run: Run, scopeId: string, pathEnded: boolean): void {
  const scope = run.state.scopes[scopeId]!
  const node = nodeOf(run.graph, scope.nodeId, "adHocSubProcess")
  const adHoc = node.adHoc
  const host = run.state.tokens[scope.tokenId]!
  if (pathEnded && adHoc.outputCollection !== null && adHoc.outputElement !== null) {
    const element = evaluateFeel(adHoc.outputElement, visibleVariables(run.state, scopeId))
    if (!element.ok) return run.raiseIncident(host, "EXTRACT_VALUE_ERROR", `outputElement: ${element.message}`)
    const collected = scope.variables[adHoc.outputCollection]
    run.emit({
      type: "VariablesSet",
      nodeId: node.id,
      scopeId,
      variables: { [adHoc.outputCollection]: [...(Array.isArray(collected) ? collected : []), element.value] }
    })
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

// The job-worker variant of ad-hoc subprocesses (zeebe:taskDefinition on the subprocess; Camunda 8.8's AI agents):
// a job of its type asks the worker what to do. The job is held by a controller token — one at a time, at the
// subprocess's own node inside its scope. The worker completes it with a result: elements to activate (each with
// variables of its own, in a scope of its own), or the completion condition fulfilled (terminating what still runs, or waiting for it).
// Whenever a path inside ends, the worker is asked again with a new job (an outstanding one is withdrawn).
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import { type AdHocSubProcessNode, type JobDefinition, MAX_AD_HOC_ACTIVATIONS } from "../../bpmn/ProcessGraph.ts"
import { createJob } from "../elements/tasks/JobTask.ts"
import type { InstanceCommand } from "../InstanceCommands.ts"
import { type Token, visibleVariables } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"
import { activateInAdHoc, holdsActivation } from "./AdHocActivations.ts"

type JobResult = NonNullable<Extract<InstanceCommand, { type: "CompleteJob" }>["result"]>

/** The token holding the worker's job: at the subprocess's node, inside its own scope (not an activation's). */
export const isController = (run: Run, token: Token): boolean =>
  run.state.scopes[token.scopeId]?.nodeId === token.nodeId && !holdsActivation(run, token)

/** The elements a worker can choose from, as Camunda 8.8 describes them to it (adHocSubProcessElements). */
export const elementsFor = (run: Run, node: AdHocSubProcessNode) =>
  node.adHoc.activatable.map((elementId) => ({
    elementId,
    elementName: run.node(elementId).name ?? elementId,
    documentation: "",
    properties: {},
    parameters: []
  }))

/** Asks the worker (again): withdraws an outstanding job, then creates one for a new controller token. */
export function askWorker(run: Run, scopeId: string, job: JobDefinition): void {
  const scope = run.state.scopes[scopeId]!
  const node = run.node(scope.nodeId)
  for (const token of Object.values(run.state.tokens)) {
    if (token.scopeId === scopeId && isController(run, token)) run.terminateToken(token)
  }
  const tokenId = run.newId("token")
  run.emit({ type: "ElementActivated", tokenId, nodeId: node.id, scopeId, viaFlow: null })
  createJob(run, run.state.tokens[tokenId]!, node, job, visibleVariables(run.state, scopeId))
}

/** The worker's answer: its variables go to the subprocess's scope, then what it decided is done. */
export function workerAnswered(
  run: Run,
  controller: Token,
  variables: Readonly<Record<string, unknown>>,
  result?: JobResult
): void {
  const scopeId = controller.scopeId
  const node = nodeOf(run.graph, controller.nodeId, "adHocSubProcess")
  const activate = result?.activateElements ?? []
  if (result?.isCompletionConditionFulfilled === true && activate.length > 0) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      "a result cannot both fulfil the completion condition and activate elements",
      "result.activateElements"
    )
  }
  if (activate.length > MAX_AD_HOC_ACTIVATIONS) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `${activate.length} elements to activate, over the limit of ${MAX_AD_HOC_ACTIVATIONS}`,
      "result.activateElements"
    )
  }
  const unknown = activate.filter((element) => !node.adHoc.activatable.includes(element.elementId))
  if (unknown.length > 0) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `${unknown.map((element) => element.elementId).join(", ")} cannot be activated in ${node.id}: its elements are ${
        node.adHoc.activatable.join(", ")
      }`,
      "result.activateElements"
    )
  }
  run.emit({ type: "ElementCompleted", tokenId: controller.id, nodeId: node.id })
  if (Object.keys(variables).length > 0) run.propagate(scopeId, node.id, variables)
  for (const element of activate) activateInAdHoc(run, scopeId, element.elementId, element.variables)
  if (result?.isCompletionConditionFulfilled !== true) return
  const running = Object.values(run.state.tokens).some((t) => t.scopeId === scopeId)
  if (running && result.isCancelRemainingInstances !== true) {
    return run.emit({ type: "AdHocCompletionFulfilled", scopeId, nodeId: node.id })
  }
  if (running) run.terminateScope(scopeId)
  run.closeScope(scopeId)
}

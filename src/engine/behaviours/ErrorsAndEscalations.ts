// Errors and escalations: the nearest catcher walking outwards (boundary events, then event subprocesses, then the
// enclosing scopes); uncaught errors become incidents or go to the calling instance.
import { boundaryIdsOf, eventStartOf, nodeOf } from "../../bpmn/GraphNodes.ts"
import type { GraphNode } from "../../bpmn/ProcessGraph.ts"
import type { Token } from "../InstanceState.ts"
import type { Catcher, Run } from "../Run.ts"
import { holdsActivation } from "./AdHocActivations.ts"

/**
 * BPMN 10.5.4 / Zeebe: a thrown error is caught by the nearest error boundary event with that code (or without a
 * code) on the activity that threw it or on an enclosing subprocess; the catching activity is interrupted and the
 * boundary path runs. Nothing catches it: an incident at the throwing element.
 */
export function throwError(
  run: Run,
  from: Token,
  errorCode: string,
  errorMessage: string,
  variables: Readonly<Record<string, unknown>>
): void {
  const catcher = run.findCatcher(
    from,
    (node) =>
      (node.type === "boundaryEvent" || node.type === "startEvent") && node.errorCatch !== null &&
      (node.errorCatch.errorCode === null || node.errorCatch.errorCode === errorCode)
  )
  if (catcher === undefined && run.state.called === true) {
    // Camunda 8: the error goes on to the caller's call activity, and this instance ends.
    run.emit({ type: "ErrorPropagated", tokenId: from.id, nodeId: from.nodeId, errorCode, errorMessage, variables })
    run.terminateAll()
    return run.emit({ type: "InstanceCanceled" })
  }
  if (catcher === undefined) {
    return run.raiseIncident(
      from,
      "UNHANDLED_ERROR_EVENT",
      `error ${errorCode} was thrown at ${from.nodeId} but no error boundary event catches it${
        errorMessage === "" ? "" : `: ${errorMessage}`
      }`
    )
  }
  if (catcher.via === "eventSubprocess") {
    run.emit({
      type: "ErrorCaught",
      tokenId: from.id,
      nodeId: from.nodeId,
      errorCode,
      hostTokenId: run.hostIdOf(catcher.scopeId),
      boundaryNodeId: catcher.nodeId
    })
    return run.startEventSubprocess(catcher.scopeId, catcher.nodeId, variables)
  }
  run.emit({
    type: "ErrorCaught",
    tokenId: from.id,
    nodeId: from.nodeId,
    errorCode,
    hostTokenId: catcher.host.id,
    boundaryNodeId: catcher.nodeId
  })
  run.interrupt(catcher.host)
  if (Object.keys(variables).length > 0) run.propagate(catcher.host.scopeId, catcher.nodeId, variables)
  run.enter(catcher.nodeId, null, catcher.host.scopeId)
}

/**
 * The nearest catcher of a thrown error or escalation, walking outwards from the thrower: boundary events of the
 * throwing activity, then the event subprocesses of its scope, then the boundary events of the subprocess that is
 * that scope, and so on. An event subprocess does not catch what is thrown inside itself.
 */
export function findCatcher(
  run: Run,
  from: Token,
  catches: (node: GraphNode) => boolean
): Catcher | undefined {
  // An iteration's token, or the token holding an ad-hoc activation, is not the element its boundary events are on.
  const boundaryOf = (token: Token): string | undefined =>
    (token.loop ?? null) !== null || holdsActivation(run, token)
      ? undefined
      : boundaryIdsOf(run.node(token.nodeId)).find((id) => catches(run.node(id)))
  const own = boundaryOf(from)
  if (own !== undefined) return { via: "boundary", host: from, nodeId: own }
  let leftEventSubprocess = false
  for (let scopeId = from.scopeId;;) {
    const eventStartId = leftEventSubprocess
      ? undefined
      : run.eventStartsOf(scopeId).find((id) => catches(run.node(id)))
    if (eventStartId !== undefined) return { via: "eventSubprocess", scopeId, nodeId: eventStartId }
    if (scopeId === run.state.instanceId) return undefined
    const scope = run.state.scopes[scopeId]
    if (scope === undefined) return undefined
    const host = run.state.tokens[scope.tokenId]
    const boundaryId = host === undefined ? undefined : boundaryOf(host)
    if (host !== undefined && boundaryId !== undefined) return { via: "boundary", host, nodeId: boundaryId }
    const hostNode = host === undefined ? undefined : run.node(host.nodeId)
    leftEventSubprocess = hostNode?.type === "subProcess" && hostNode.triggeredByEvent === true
    scopeId = scope.parentId
  }
}

/**
 * BPMN 10.5.3 / Camunda 8: an escalation is caught like an error (nearest boundary event on an enclosing subprocess
 * or call activity, or event subprocess, with that code or none). An interrupting catcher ends the scope it guards;
 * a non-interrupting one starts its path alongside and the thrower goes on, as it does when nothing catches it.
 * Returns whether the thrower goes on.
 */
export function throwEscalation(run: Run, from: Token, code: string): boolean {
  const catcher = run.findCatcher(
    from,
    (node) =>
      (node.type === "boundaryEvent" || node.type === "startEvent") && node.escalationCatch != null &&
      (node.escalationCatch.code === null || node.escalationCatch.code === code)
  )
  run.emit({
    type: "EscalationThrown",
    tokenId: from.id,
    nodeId: from.nodeId,
    escalationCode: code,
    caughtBy: catcher?.nodeId ?? null
  })
  if (catcher === undefined) {
    // The caller's call activity may catch it; if that interrupts, the caller cancels this instance.
    if (run.state.called === true) {
      run.emit({ type: "EscalationPropagated", tokenId: from.id, nodeId: from.nodeId, escalationCode: code })
    }
    return true
  }
  if (catcher.via === "eventSubprocess") {
    const interrupting = eventStartOf(run.graph, catcher.nodeId).interrupting
    run.startEventSubprocess(catcher.scopeId, catcher.nodeId, {})
    return !interrupting
  }
  const interrupting = nodeOf(run.graph, catcher.nodeId, "boundaryEvent").boundary.interrupting
  if (interrupting) run.interrupt(catcher.host)
  run.enter(catcher.nodeId, null, catcher.host.scopeId)
  return !interrupting
}

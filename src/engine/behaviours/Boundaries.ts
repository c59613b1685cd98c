// Armed catch events around a token: boundary events, event-based gateway targets, event-subprocess starts; opening,
// closing and triggering them, and interrupting what they guard.
import { eventStartOf, isCatchEvent, nodeOf } from "../../bpmn/GraphNodes.ts"
import { dueAt, nextCycleDue } from "../../bpmn/Timer.ts"
import { correlationKeyOf } from "../CorrelationKey.ts"
import { type Boundary, type Token, visibleVariables } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

/**
 * Arms catch events on a host: an activity's boundary events, the events after an event-based gateway, or a scope's
 * event subprocess start events (`host.scopeId` is where keys and timers are evaluated). False, with an incident
 * on `failing`, when a correlation key or timer cannot be evaluated. Error events need no subscription: a thrown
 * error looks for its catcher.
 */
export function openBoundaries(
  run: Run,
  host: { readonly id: string; readonly scopeId: string },
  failing: Token,
  eventIds: ReadonlyArray<string>,
  how: { readonly viaGateway?: true; readonly eventScopeId?: string } = {}
): boolean {
  const visible = visibleVariables(run.state, host.scopeId)
  for (const boundaryId of eventIds) {
    const boundary = run.node(boundaryId)
    // Only catch events are armed (the compiler lets nothing else be attached, follow a gateway, or start a scope).
    if (!isCatchEvent(boundary)) continue
    const subscriptionId = run.newId(`boundary-${boundaryId}`)
    const base = { type: "BoundaryOpened" as const, hostTokenId: host.id, nodeId: boundaryId, subscriptionId, ...how }
    if (boundary.message !== null) {
      const key = correlationKeyOf(boundary.message, visible)
      if (!key.ok) {
        run.raiseIncident(failing, "EXTRACT_VALUE_ERROR", `correlation key of ${boundaryId} ${key.message}`)
        return false
      }
      run.emit({
        ...base,
        kind: "message",
        name: boundary.message.name,
        correlationKey: key.key,
        dueAt: null
      })
    } else if (boundary.signal !== null) {
      run.emit({ ...base, kind: "signal", name: boundary.signal.name, correlationKey: null, dueAt: null })
    } else if (boundary.timer !== null) {
      const due = dueAt(boundary.timer, run.now, visible)
      if (!due.ok) {
        run.raiseIncident(failing, "EXTRACT_VALUE_ERROR", `timer of ${boundaryId} failed: ${due.message}`)
        return false
      }
      run.emit({ ...base, kind: "timer", name: null, correlationKey: null, dueAt: new Date(due.dueAt).toISOString() })
    } else if (boundary.condition != null) {
      run.emit({ ...base, kind: "conditional", name: null, correlationKey: null, dueAt: null })
    }
  }
  return true
}

export function closeBoundaries(run: Run, hostTokenId: string): void {
  for (const boundary of Object.values(run.state.boundaries ?? {})) {
    if (boundary.hostTokenId === hostTokenId) {
      run.emit({
        type: "BoundaryClosed",
        hostTokenId,
        nodeId: boundary.nodeId,
        subscriptionId: boundary.subscriptionId
      })
    }
  }
}

/**
 * BPMN 10.5.4: an interrupting boundary event cancels its activity (and everything inside it) and the process
 * continues from the boundary event; a non-interrupting one starts a second path while the activity keeps running.
 */
export function triggerBoundary(run: Run, subscriptionId: string, variables: Readonly<Record<string, unknown>>): void {
  const armed = run.state.boundaries?.[subscriptionId]
  if (armed === undefined) {
    throw new Rejected("NOT_FOUND", `subscription ${subscriptionId} is not open in this instance`)
  }
  if (armed.eventScopeId !== undefined) return run.triggerEventStart(armed, variables)
  const host = run.state.tokens[armed.hostTokenId]!
  if (armed.viaGateway === true) return run.passEventGateway(host, armed.nodeId, subscriptionId, variables)
  const interrupting = nodeOf(run.graph, armed.nodeId, "boundaryEvent").boundary.interrupting
  // A timer fires once; a non-interrupting message or signal boundary stays armed.
  if (interrupting || armed.kind === "timer") {
    run.emit({ type: "BoundaryClosed", hostTokenId: host.id, nodeId: armed.nodeId, subscriptionId })
  }
  run.emit({
    type: "BoundaryTriggered",
    hostTokenId: host.id,
    nodeId: armed.nodeId,
    subscriptionId,
    interrupting,
    variables
  })
  if (!interrupting) rearmCycle(run, armed, host.scopeId)
  if (interrupting) run.interrupt(host)
  if (Object.keys(variables).length > 0) run.propagate(host.scopeId, armed.nodeId, variables)
  run.enter(armed.nodeId, null, host.scopeId)
}

/**
 * A non-interrupting timer cycle fired: it is armed again for its next occurrence, until R<n> is used up (missed
 * occurrences collapse into one fire: bpmn/TimerCycle.ts).
 */
function rearmCycle(run: Run, armed: Boundary, scopeId: string): void {
  const node = run.node(armed.nodeId)
  const timer = isCatchEvent(node) ? node.timer : null
  if (armed.kind !== "timer" || timer === null || timer.kind !== "cycle" || armed.dueAt === undefined) return
  const fired = (armed.fired ?? 0) + 1
  const next = nextCycleDue(timer, Date.parse(armed.dueAt), run.now, fired, visibleVariables(run.state, scopeId))
  if (next === null) return
  run.emit({
    type: "BoundaryOpened",
    hostTokenId: armed.hostTokenId,
    nodeId: armed.nodeId,
    subscriptionId: run.newId(`boundary-${armed.nodeId}`),
    kind: "timer",
    name: null,
    correlationKey: null,
    dueAt: new Date(next).toISOString(),
    fired,
    ...(armed.eventScopeId === undefined ? {} : { eventScopeId: armed.eventScopeId })
  })
}

/** An event subprocess's start event happened (message, signal, timer, condition). */
export function triggerEventStart(run: Run, armed: Boundary, variables: Readonly<Record<string, unknown>>): void {
  const interrupting = eventStartOf(run.graph, armed.nodeId).interrupting
  // A timer fires once; a non-interrupting message, signal or condition can start the subprocess again.
  if (interrupting || armed.kind === "timer") {
    run.emit({
      type: "BoundaryClosed",
      hostTokenId: armed.hostTokenId,
      nodeId: armed.nodeId,
      subscriptionId: armed.subscriptionId
    })
  }
  run.emit({
    type: "BoundaryTriggered",
    hostTokenId: armed.hostTokenId,
    nodeId: armed.nodeId,
    subscriptionId: armed.subscriptionId,
    interrupting,
    variables
  })
  if (!interrupting) rearmCycle(run, armed, armed.eventScopeId!)
  run.startEventSubprocess(armed.eventScopeId!, armed.nodeId, variables)
}

/** The first event after an event-based gateway happened: the gateway moves on through that event only. */
export function passEventGateway(
  run: Run,
  gateway: Token,
  eventNodeId: string,
  subscriptionId: string,
  variables: Readonly<Record<string, unknown>>
): void {
  const gatewayNode = run.node(gateway.nodeId)
  run.closeBoundaries(gateway.id)
  run.emit({
    type: "BoundaryTriggered",
    hostTokenId: gateway.id,
    nodeId: eventNodeId,
    subscriptionId,
    interrupting: true,
    variables
  })
  run.emit({ type: "ElementCompleted", tokenId: gateway.id, nodeId: gatewayNode.id })
  const flowId = gatewayNode.outgoing.find((id) => run.flow(id).target === eventNodeId)!
  run.emit({ type: "FlowTaken", flowId, tokenId: gateway.id, nodeId: gatewayNode.id })
  const tokenId = run.newId("token")
  run.emit({ type: "ElementActivated", tokenId, nodeId: eventNodeId, scopeId: gateway.scopeId, viaFlow: flowId })
  // The catch event already happened: it completes at once with the payload.
  const eventNode = run.node(eventNodeId)
  run.finishActivity(run.state.tokens[tokenId]!, eventNode, variables)
}

/** Ends an activity and everything inside it (its subprocess or multi-instance scope, jobs, tasks, children). */
export function interrupt(run: Run, host: Token): void {
  const wait = host.wait
  if (wait?.kind === "subprocess" || wait?.kind === "multiInstance") {
    run.terminateScope(wait.scopeId)
    run.emit({ type: "ScopeClosed", scopeId: wait.scopeId, nodeId: host.nodeId })
  }
  const current = run.state.tokens[host.id]
  if (current !== undefined) run.terminateToken(current)
}

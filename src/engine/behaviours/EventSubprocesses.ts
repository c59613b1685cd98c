// Event subprocesses: their start events armed while the enclosing scope runs, and started when one triggers.
import { eventStartOf } from "../../bpmn/GraphNodes.ts"
import type { Run } from "../Run.ts"

/** The start events of the event subprocesses of a scope: the process's, or an embedded subprocess's. */
export function eventStartsOf(run: Run, scopeId: string): ReadonlyArray<string> {
  if (scopeId === run.state.instanceId) return run.graph.eventStartIds ?? []
  const scope = run.state.scopes[scopeId]
  if (scope === undefined) return []
  // Only the scope a subprocess's content runs in (its token waits on it), not a multi-instance body or iteration.
  const wait = run.state.tokens[scope.tokenId]?.wait
  if (wait?.kind !== "subprocess" || wait.scopeId !== scopeId) return []
  const node = run.node(scope.nodeId)
  return node.type === "subProcess" ? node.eventStartIds ?? [] : []
}

/** What an event subprocess's subscriptions hang on: the scope's token, or the instance id at process level. */
export function hostIdOf(run: Run, scopeId: string): string {
  return scopeId === run.state.instanceId ? scopeId : run.state.scopes[scopeId]?.tokenId ?? scopeId
}

/** Withdraws the armed event subprocess start events of a scope. */
export function closeEventStarts(run: Run, scopeId: string): void {
  for (const armed of Object.values(run.state.boundaries ?? {})) {
    if (armed.eventScopeId === scopeId) {
      run.emit({
        type: "BoundaryClosed",
        hostTokenId: armed.hostTokenId,
        nodeId: armed.nodeId,
        subscriptionId: armed.subscriptionId
      })
    }
  }
}

/**
 * BPMN 10.3.5: an event subprocess starts when its start event happens. An interrupting one first ends everything
 * else in its scope (tokens and the scope's other event subprocesses); a non-interrupting one runs alongside.
 */
export function startEventSubprocess(
  run: Run,
  scopeId: string,
  startNodeId: string,
  variables: Readonly<Record<string, unknown>>
): void {
  const eventStart = eventStartOf(run.graph, startNodeId)
  if (eventStart.interrupting) {
    run.closeEventStarts(scopeId)
    run.terminateScope(scopeId)
  }
  if (Object.keys(variables).length > 0) run.propagate(scopeId, startNodeId, variables)
  run.enter(eventStart.subprocessId, null, scopeId)
}

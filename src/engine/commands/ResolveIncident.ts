// Resolving an incident: retry, skip the node, restart from a node, or roll the variables back.
import { checkProcessListenerAction } from "../behaviours/ProcessListeners.ts"
import type { InstanceCommand } from "../InstanceCommands.ts"
import { visibleVariables } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

/**
 * Resolves an incident: `retry` runs its node again from the start (a dead-lettered job just becomes activatable
 * again, with one retry); `skip` goes past the node as if it had completed, without its result. Whatever the node
 * had opened (boundary events, a subprocess's content, a failed job) is withdrawn first.
 */
export function resolveIncident(run: Run, command: Extract<InstanceCommand, { type: "ResolveIncident" }>): void {
  const incident = run.state.incidents[command.incidentId]
  if (incident === undefined) {
    throw new Rejected("NOT_FOUND", `incident ${command.incidentId} is not open in this instance`)
  }
  const token = run.state.tokens[incident.tokenId]
  if (token === undefined) throw new Rejected("INVALID_STATE", `incident ${command.incidentId} has no token to resume`)
  checkProcessListenerAction(run, token, command.action)
  if (command.restoreVariables !== undefined) {
    for (const name of Object.keys(run.state.variables)) {
      if (!(name in command.restoreVariables)) {
        run.emit({ type: "VariableRemoved", scopeId: run.state.instanceId, name })
      }
    }
    run.emit({ type: "VariablesSet", nodeId: null, scopeId: run.state.instanceId, variables: command.restoreVariables })
  }
  if (command.variables !== undefined && Object.keys(command.variables).length > 0) {
    run.propagate(token.scopeId, null, command.variables)
  }
  run.emit({ type: "IncidentResolved", incidentId: incident.id, nodeId: incident.nodeId })
  if (command.action === "retry" && incident.jobId !== undefined) {
    return run.emit({
      type: "JobRetriesUpdated",
      tokenId: token.id,
      nodeId: token.nodeId,
      jobId: incident.jobId,
      retries: 1
    })
  }
  if (incident.jobId !== undefined) {
    run.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId: incident.jobId })
  }
  const node = run.node(token.nodeId)
  // What the node opened before it failed goes; a retry opens it again.
  run.closeBoundaries(token.id)
  if (node.type === "startEvent") run.closeEventStarts(token.scopeId)
  for (
    const scope of Object.values(run.state.scopes).filter((s) => s.tokenId === token.id && s.parentId === token.scopeId)
  ) {
    run.terminateScope(scope.id)
    run.emit({ type: "ScopeClosed", scopeId: scope.id, nodeId: scope.nodeId })
  }
  if (command.action === "retry") {
    run.emit({ type: "NodeRetried", tokenId: token.id, nodeId: token.nodeId, incidentId: incident.id })
    run.work.push(() => run.activate(token.id))
    return
  }
  run.emit({ type: "NodeSkipped", tokenId: token.id, nodeId: token.nodeId, incidentId: incident.id })
  const current = run.state.tokens[token.id]!
  run.leave(current, node, run.takeableFlows(current, node, visibleVariables(run.state, current.scopeId)))
}

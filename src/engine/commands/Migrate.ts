// Migration to another version of the process: tokens and what they host take their mapped nodes.
import { boundaryIdsOf } from "../../bpmn/GraphNodes.ts"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import type { InstanceCommand } from "../InstanceCommands.ts"
import type { Boundary } from "../InstanceState.ts"
import { planMigration, triggerOf } from "../Migration.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

/**
 * Migrates the instance to another version (this run's graph is the target's): tokens and the scopes they host
 * move to their mapped nodes; jobs, tasks and subscriptions stay with their tokens. Armed catch events the target
 * has at the same place stay armed, the others are withdrawn, and the target's new ones are armed.
 */
export function migrateFrom(
  run: Run,
  source: ProcessGraph,
  command: Extract<InstanceCommand, { type: "MigrateInstance" }>
): void {
  const status = run.state.status
  if (status === "COMPLETED" || status === "CANCELED") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is ${status.toLowerCase()}`)
  }
  if (Object.values(run.state.tokens).some((token) => token.nodeId === source.key && !(token.nodeId in source.nodes))) {
    throw new Rejected("INVALID_STATE", "the process's execution listeners are running: migrate once they have run")
  }
  const plan = planMigration(source, run.graph, run.state, command.mappings)
  if (!plan.ok) throw new Rejected("INVALID_ARGUMENT", plan.problems.join("; "))
  run.emit({ type: "InstanceMigrated", targetDeploymentId: command.targetDeploymentId, mappings: plan.mapping })
  for (const token of Object.values(run.state.tokens)) {
    run.emit({
      type: "TokenMigrated",
      tokenId: token.id,
      nodeId: plan.mapping[token.nodeId]!,
      sourceNodeId: token.nodeId
    })
  }
  const sameKind = (armed: Boundary): boolean => {
    const node = run.graph.nodes[armed.nodeId]
    return node !== undefined && triggerOf(node) === armed.kind
  }
  for (const armed of Object.values(run.state.boundaries ?? {})) {
    const host = run.state.tokens[armed.hostTokenId]
    const stillThere = armed.eventScopeId !== undefined
      ? run.eventStartsOf(armed.eventScopeId).includes(armed.nodeId)
      : host !== undefined && (armed.viaGateway === true
        ? run.node(host.nodeId).outgoing.some((flowId) => run.flow(flowId).target === armed.nodeId)
        : boundaryIdsOf(run.node(host.nodeId)).includes(armed.nodeId))
    if (!stillThere || !sameKind(armed)) {
      run.emit({
        type: "BoundaryClosed",
        hostTokenId: armed.hostTokenId,
        nodeId: armed.nodeId,
        subscriptionId: armed.subscriptionId
      })
    }
  }
  const armedAt = (hostId: string) =>
    new Set(Object.values(run.state.boundaries ?? {}).filter((b) => b.hostTokenId === hostId).map((b) => b.nodeId))
  for (const token of Object.values(run.state.tokens)) {
    if (
      (token.loop ?? null) !== null || token.wait === null || token.wait.kind === "join" ||
      token.wait.kind === "incident"
    ) continue
    const node = run.node(token.nodeId)
    const armed = armedAt(token.id)
    const gateway = node.type === "eventBasedGateway"
    const wanted = gateway ? node.outgoing.map((flowId) => run.flow(flowId).target) : boundaryIdsOf(node)
    const missing = wanted.filter((id) => !armed.has(id))
    if (missing.length > 0) run.openBoundaries(token, token, missing, gateway ? { viaGateway: true } : {})
  }
  for (const scopeId of [run.state.instanceId, ...Object.keys(run.state.scopes)]) {
    const hostId = run.hostIdOf(scopeId)
    const armed = new Set(
      Object.values(run.state.boundaries ?? {}).filter((b) => b.eventScopeId === scopeId).map((b) => b.nodeId)
    )
    const missing = run.eventStartsOf(scopeId).filter((id) => !armed.has(id))
    const failing = run.state.tokens[hostId] ?? Object.values(run.state.tokens).find((t) => t.scopeId === scopeId)
    if (missing.length > 0 && failing !== undefined) {
      run.openBoundaries({ id: hostId, scopeId }, failing, missing, { eventScopeId: scopeId })
    }
  }
}

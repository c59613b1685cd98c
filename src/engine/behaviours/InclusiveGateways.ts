// Inclusive gateways: the fork on every true condition, and the join that waits only for tokens that can still arrive.
import { evaluateFeel, isExpression } from "../../bpmn/Expressions.ts"
import type { GraphNode } from "../../bpmn/ProcessGraph.ts"
import { type Token, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

/** Whether `target` can be reached from `from` along sequence flows. */
export function reaches(run: Run, from: string, target: string): boolean {
  const seen = new Set<string>()
  const queue = [from]
  for (let nodeId = queue.shift(); nodeId !== undefined; nodeId = queue.shift()) {
    for (const flowId of run.graph.nodes[nodeId]?.outgoing ?? []) {
      const next = run.flow(flowId).target
      if (next === target) return true
      if (!seen.has(next)) {
        seen.add(next)
        queue.push(next)
      }
    }
  }
  return false
}

/**
 * BPMN 13.3.4: an inclusive join fires once it has a token and no other token of the instance can still arrive
 * at it (no token elsewhere has a path to the gateway).
 */
export function fireReadyInclusiveJoins(run: Run): boolean {
  const tokens = Object.values(run.state.tokens)
  for (const node of Object.values(run.graph.nodes)) {
    if (node.type !== "inclusiveGateway" || node.incoming.length <= 1) continue
    const arrived = tokens.filter((t) => t.nodeId === node.id && t.wait?.kind === "join")
    if (arrived.length === 0) continue
    const pending = tokens.some((t) =>
      !(t.nodeId === node.id && t.wait?.kind === "join") && (t.nodeId === node.id || run.reaches(t.nodeId, node.id))
    )
    if (pending) continue
    for (const other of arrived.slice(1)) run.emit({ type: "ElementCompleted", tokenId: other.id, nodeId: node.id })
    const survivor = run.state.tokens[arrived[0]!.id]!
    run.work.push(() => run.inclusiveFork(survivor, node))
    return true
  }
  return false
}

/** BPMN 13.3.4: every outgoing flow whose condition is true; the default flow only when none is. */
export function inclusiveFork(run: Run, token: Token, node: GraphNode): void {
  const forced = run.chosenFlow(node)
  if (forced !== undefined) return run.leave(token, node, [forced])
  const visible = visibleVariables(run.state, token.scopeId)
  const chosen: Array<string> = []
  for (const flowId of node.outgoing) {
    if (flowId === node.defaultFlow) continue
    const condition = run.flow(flowId).condition
    if (condition === null) {
      chosen.push(flowId)
      continue
    }
    const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
    if (!outcome.ok) {
      return run.raiseIncident(token, "CONDITION_ERROR", `condition of flow ${flowId} failed: ${outcome.message}`)
    }
    if (outcome.value === true) chosen.push(flowId)
  }
  if (chosen.length === 0 && node.defaultFlow !== null) chosen.push(node.defaultFlow)
  if (chosen.length === 0) {
    return run.raiseIncident(
      token,
      "CONDITION_ERROR",
      `no outgoing flow of inclusive gateway ${node.id} has a true condition and there is no default flow`
    )
  }
  run.leave(token, node, chosen)
}

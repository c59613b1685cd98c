// Conditional events: conditions evaluated after every command; a non-interrupting one triggers on the rise.
import { evaluateFeel, isExpression } from "../../bpmn/Expressions.ts"
import { isCatchEvent } from "../../bpmn/GraphNodes.ts"
import type { GraphNode } from "../../bpmn/ProcessGraph.ts"
import { type InstanceState, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

/** Whether a FEEL condition holds in a scope of a state (a failing condition does not hold). */
export function conditionHolds(run: Run, condition: string, state: InstanceState, scopeId: string): boolean {
  const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visibleVariables(state, scopeId))
  return outcome.ok && outcome.value === true
}

/**
 * Conditional events (as Camunda 8): a waiting conditional catch event and an interrupting conditional boundary or
 * event subprocess trigger once their condition is true; a non-interrupting one when it becomes true (it was false
 * before this command, or was armed by it). One trigger per call; the drain loop calls again.
 */
export function fireConditions(run: Run): boolean {
  if (run.state.status !== "ACTIVE") return false
  for (const token of Object.values(run.state.tokens)) {
    if (token.wait?.kind !== "condition") continue
    const node = run.node(token.nodeId)
    if (!run.conditionHolds(conditionOf(node), run.state, token.scopeId)) continue
    run.emit({ type: "ConditionTriggered", tokenId: token.id, nodeId: node.id })
    run.finishActivity(run.state.tokens[token.id]!, node, {})
    return true
  }
  for (const armed of Object.values(run.state.boundaries ?? {})) {
    if (armed.kind !== "conditional" || run.conditionsFired.has(armed.subscriptionId)) continue
    const node = run.node(armed.nodeId)
    const scopeId = armed.eventScopeId ?? run.state.tokens[armed.hostTokenId]?.scopeId
    if (scopeId === undefined || !run.conditionHolds(conditionOf(node), run.state, scopeId)) continue
    const interrupting = node.type === "startEvent" && node.eventStart != null
      ? node.eventStart.interrupting
      : node.type === "boundaryEvent"
      ? node.boundary.interrupting
      : true
    const armedBefore = run.before.boundaries?.[armed.subscriptionId] !== undefined
    if (!interrupting && armedBefore && run.conditionHolds(conditionOf(node), run.before, scopeId)) continue
    run.conditionsFired.add(armed.subscriptionId)
    run.triggerBoundary(armed.subscriptionId, {})
    return true
  }
  return false
}

/** The condition of a conditional catch event ("" for any other node: it never holds). */
const conditionOf = (node: GraphNode): string => (isCatchEvent(node) ? node.condition ?? "" : "")

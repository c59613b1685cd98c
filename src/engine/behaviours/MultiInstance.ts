// Multi-instance activities: the body, its iterations (parallel or sequential) and the output collection.
import { evaluateFeel } from "../../bpmn/Expressions.ts"
import { isActivity, loopOf } from "../../bpmn/GraphNodes.ts"
import type { GraphNode, MultiInstanceDefinition } from "../../bpmn/ProcessGraph.ts"
import { type Token, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"
import { liftIterationCompensable, recordCompensable } from "./Compensation.ts"

/** BPMN 13.2.2 / Zeebe: the input collection is evaluated once; parallel starts every item, sequential one by one. */
export function startMultiInstance(run: Run, token: Token, node: GraphNode, loop: MultiInstanceDefinition): void {
  const collection = evaluateFeel(loop.inputCollection, visibleVariables(run.state, token.scopeId))
  if (!collection.ok) {
    return run.raiseIncident(
      token,
      "EXTRACT_VALUE_ERROR",
      `input collection of ${node.id} failed: ${collection.message}`
    )
  }
  if (!Array.isArray(collection.value)) {
    return run.raiseIncident(
      token,
      "EXTRACT_VALUE_ERROR",
      `input collection of ${node.id} must be a list, got ${
        collection.value === null ? "null" : typeof collection.value
      }`
    )
  }
  const items = collection.value
  const scopeId = run.newId("scope")
  run.emit({
    type: "MultiInstanceStarted",
    tokenId: token.id,
    nodeId: node.id,
    scopeId,
    parentScopeId: token.scopeId,
    items,
    sequential: loop.sequential,
    variables: loop.outputCollection === null ? {} : { [loop.outputCollection]: items.map(() => null) }
  })
  if (items.length === 0) return run.completeMultiInstance(scopeId)
  const first = loop.sequential ? 1 : items.length
  for (let index = 0; index < first; index++) run.startIteration(scopeId, index)
}

export function startIteration(run: Run, bodyScopeId: string, index: number): void {
  const body = run.state.scopes[bodyScopeId]!
  const loop = loopOf(run.graph, body.nodeId)
  const tokenId = run.newId("token")
  run.emit({
    type: "IterationStarted",
    bodyScopeId,
    index,
    scopeId: run.newId("scope"),
    tokenId,
    nodeId: body.nodeId,
    variables: {
      ...(loop.inputElement === null ? {} : { [loop.inputElement]: body.loop!.items[index] }),
      loopCounter: index + 1
    }
  })
  run.work.push(() => run.activate(tokenId))
}

/** One iteration ended: its output element goes into its slot of the output collection. */
export function finishIteration(run: Run, token: Token, node: GraphNode): void {
  const loop = loopOf(run.graph, node.id)
  const { bodyScopeId, index } = token.loop!
  if (loop.outputCollection !== null && loop.outputElement !== null) {
    const value = evaluateFeel(loop.outputElement, visibleVariables(run.state, token.scopeId))
    if (!value.ok) {
      return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `output element of ${node.id} failed: ${value.message}`)
    }
    const results = [...(run.state.scopes[bodyScopeId]!.variables[loop.outputCollection] as Array<unknown>)]
    results[index] = value.value
    run.emit({
      type: "VariablesSet",
      nodeId: node.id,
      scopeId: bodyScopeId,
      variables: { [loop.outputCollection]: results }
    })
  }
  // A completed inner instance is compensable on its own (Camunda 8: a handler runs once per completion of its activity).
  if (isActivity(node) && node.compensation !== undefined) recordCompensable(run, token, node)
  liftIterationCompensable(run, token.scopeId, bodyScopeId)
  run.emit({
    type: "IterationCompleted",
    bodyScopeId,
    index,
    scopeId: token.scopeId,
    tokenId: token.id,
    nodeId: node.id
  })
  const body = run.state.scopes[bodyScopeId]!
  if (body.loop!.completed === body.loop!.items.length) return run.completeMultiInstance(bodyScopeId)
  if (body.loop!.sequential && body.loop!.nextIndex < body.loop!.items.length) {
    run.startIteration(bodyScopeId, body.loop!.nextIndex)
  }
}

/** All iterations done: the output collection is the body's result, and the activity moves on. */
export function completeMultiInstance(run: Run, bodyScopeId: string): void {
  const body = run.state.scopes[bodyScopeId]!
  const node = run.node(body.nodeId)
  const loop = loopOf(run.graph, node.id)
  const outputs = loop.outputCollection === null
    ? {}
    : { [loop.outputCollection]: body.variables[loop.outputCollection] }
  const token = run.state.tokens[body.tokenId]!
  liftIterationCompensable(run, bodyScopeId, token.scopeId)
  run.emit({ type: "ScopeClosed", scopeId: bodyScopeId, nodeId: node.id })
  if (Object.keys(outputs).length > 0) run.propagate(token.scopeId, node.id, outputs)
  run.leave(
    run.state.tokens[token.id]!,
    node,
    run.takeableFlows(token, node, visibleVariables(run.state, token.scopeId))
  )
}

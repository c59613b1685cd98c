// What a job's worker gets at activation, and what a job or user task shows while the instance waits on it: the
// variables as they stand now (a job or task records only its own when created: OwnVariables.ts), visible from its
// element — its scopes inward-out, then the instance, then the element's own variables (PUT .../nodes/{id}/variables)
// — with the element's input mappings applied now, as Zeebe does. So an edit of the instance's variables, an
// edit-variables-and-retry or a rollback is what the next activation (or a task's form) sees.
import { evaluateFeel } from "../bpmn/Expressions.ts"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { type InstanceState, type Token, visibleVariables } from "./InstanceState.ts"

/** What the instance waits on: a job, or a user task (also while one of the task's listeners runs). */
export type WaitedOn = { readonly kind: "job"; readonly id: string } | {
  readonly kind: "userTask"
  readonly id: string
}

const waitsOn = (token: Token, waited: WaitedOn): boolean =>
  waited.kind === "job"
    ? token.wait?.kind === "job" && token.wait.jobId === waited.id
    : (token.wait?.kind === "userTask" && token.wait.taskId === waited.id) || token.listener?.taskId === waited.id

/** The job's variables now; undefined when the instance no longer waits on that job or a mapping cannot be applied. */
export const jobVariablesNow = (graph: ProcessGraph, state: InstanceState, jobId: string) =>
  variablesNow(graph, state, { kind: "job", id: jobId })

/** The variables of a job or task now; undefined when the instance no longer waits on it or a mapping fails. */
export const variablesNow = (
  graph: ProcessGraph,
  state: InstanceState,
  waited: WaitedOn
): Record<string, unknown> | undefined => {
  const token = Object.values(state.tokens).find((t) => waitsOn(t, waited))
  if (token === undefined) return undefined
  const node = graph.nodes[token.nodeId]
  // A listener of the process itself sees the instance's variables.
  if (node === undefined) return token.nodeId === graph.key ? visibleVariables(state, token.scopeId) : undefined
  const outer = { ...visibleVariables(state, token.scopeId), ...state.nodeVariables[node.id], ...token.locals }
  const locals: Record<string, unknown> = {}
  // The job of an ad-hoc subprocess's worker runs inside the subprocess's scope, which holds its mapped inputs (a
  // multi-instance iteration's scope belongs to its element too, but holds only the item and loopCounter).
  const insideOwnScope = node.type === "adHocSubProcess" && state.scopes[token.scopeId]?.nodeId === token.nodeId
  for (const mapping of insideOwnScope ? [] : node.inputs) {
    const outcome = evaluateFeel(mapping.source, { ...outer, ...locals })
    if (!outcome.ok) return undefined
    locals[mapping.target] = outcome.value
  }
  return { ...outer, ...locals }
}

// What a job's worker gets at activation: the variables as they stand now (not a copy made when the job was
// created), visible from the job's element — its scopes inward-out, then the instance, then the element's own
// variables (PUT .../nodes/{id}/variables) — with the element's input mappings applied now, as Zeebe does. So an
// edit of the instance's variables, an edit-variables-and-retry or a rollback is what the next activation sees.
import { evaluateFeel } from "../bpmn/Expressions.ts"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { type InstanceState, visibleVariables } from "./InstanceState.ts"

/** The job's variables now; undefined when the instance no longer waits on that job or a mapping cannot be applied. */
export const jobVariablesNow = (
  graph: ProcessGraph,
  state: InstanceState,
  jobId: string
): Record<string, unknown> | undefined => {
  const token = Object.values(state.tokens).find((t) => t.wait?.kind === "job" && t.wait.jobId === jobId)
  if (token === undefined) return undefined
  const node = graph.nodes[token.nodeId]
  // A listener of the process itself sees the instance's variables.
  if (node === undefined) return token.nodeId === graph.key ? visibleVariables(state, token.scopeId) : undefined
  const outer = { ...visibleVariables(state, token.scopeId), ...state.nodeVariables[node.id], ...token.locals }
  const locals: Record<string, unknown> = {}
  // The job of an ad-hoc subprocess's worker runs inside the subprocess's scope, which holds its mapped inputs.
  const insideOwnScope = state.scopes[token.scopeId]?.nodeId === token.nodeId
  for (const mapping of insideOwnScope ? [] : node.inputs) {
    const outcome = evaluateFeel(mapping.source, { ...outer, ...locals })
    if (!outcome.ok) return undefined
    locals[mapping.target] = outcome.value
  }
  return { ...outer, ...locals }
}

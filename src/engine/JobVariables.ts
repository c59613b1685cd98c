// What a job's worker gets at activation, and what a job or user task shows while the instance waits on it: the
// variables visible from its element as they stand now — its scopes inward-out, then the instance, then the element's
// own variables (PUT .../nodes/{id}/variables) — and its input mappings' results: evaluated now for an activation (so
// an edit-variables-and-retry or a rollback is what the next activation of the same job sees), as the job or task
// recorded them when it was created (engine/OwnVariables.ts) for a list, which so runs no expression at all.
import { evaluateFeel } from "../bpmn/Expressions.ts"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { type InstanceState, type Token, visibleVariables } from "./InstanceState.ts"

/** What the instance waits on: a job, or a user task (also while one of the task's listeners runs). */
export type WaitedOn = { readonly kind: "job"; readonly id: string } | {
  readonly kind: "userTask"
  readonly id: string
}

const keyOf = (waited: WaitedOn) => `${waited.kind}:${waited.id}`

/** The instance's tokens by what they wait on: built once for all the jobs and tasks of an instance asked about. */
export const tokensWaiting = (state: InstanceState): ReadonlyMap<string, Token> => {
  const waiting = new Map<string, Token>()
  for (const token of Object.values(state.tokens)) {
    if (token.wait?.kind === "job") waiting.set(keyOf({ kind: "job", id: token.wait.jobId }), token)
    if (token.wait?.kind === "userTask") waiting.set(keyOf({ kind: "userTask", id: token.wait.taskId }), token)
    const taskId = token.listener?.taskId
    if (taskId !== undefined) {
      const key = keyOf({ kind: "userTask", id: taskId })
      if (!waiting.has(key)) waiting.set(key, token)
    }
  }
  return waiting
}

/**
 * The variables of a job or task now; undefined when the instance no longer waits on it, or a mapping evaluated now
 * fails. `recorded`: the variables it recorded when created (its input mappings' results among them); `mappings`:
 * whether they are evaluated now or taken as recorded. `waiting`: tokensWaiting(state), when at hand.
 */
export const variablesNow = (
  graph: ProcessGraph,
  state: InstanceState,
  waited: WaitedOn,
  recorded: Readonly<Record<string, unknown>>,
  mappings: "evaluated" | "recorded",
  waiting: ReadonlyMap<string, Token> = tokensWaiting(state)
): Record<string, unknown> | undefined => {
  const token = waiting.get(keyOf(waited))
  if (token === undefined) return undefined
  const node = graph.nodes[token.nodeId]
  // A listener of the process itself sees the instance's variables.
  if (node === undefined) return token.nodeId === graph.key ? visibleVariables(state, token.scopeId) : undefined
  const now = { ...visibleVariables(state, token.scopeId), ...state.nodeVariables[node.id], ...token.locals }
  // The job of an ad-hoc subprocess's worker runs inside the subprocess's scope, which holds its mapped inputs (a
  // multi-instance iteration's scope belongs to its element too, but holds only the item and loopCounter).
  const insideOwnScope = node.type === "adHocSubProcess" && state.scopes[token.scopeId]?.nodeId === token.nodeId
  for (const mapping of insideOwnScope ? [] : node.inputs) {
    if (mappings === "recorded") {
      if (Object.hasOwn(recorded, mapping.target)) now[mapping.target] = recorded[mapping.target]
      continue
    }
    const outcome = evaluateFeel(mapping.source, now)
    if (!outcome.ok) return undefined
    now[mapping.target] = outcome.value
  }
  return now
}

/** What the job's worker gets if it activates the job now (see variablesNow). */
export const jobVariablesNow = (
  graph: ProcessGraph,
  state: InstanceState,
  jobId: string,
  recorded: Readonly<Record<string, unknown>>
) => variablesNow(graph, state, { kind: "job", id: jobId }, recorded, "evaluated")

// Execution listeners: jobs the element waits for — its start listeners, one after another, before it runs (after its
// input mappings; boundary events are armed only then), its end listeners after it completed (output mappings
// applied) and before it leaves. A listener job's variables go where an activity's would; a failed one follows the job
// rules (retries, then an incident; resolving it lets the listener run again).
import type { GraphNode, ListenerDefinition } from "../../bpmn/ProcessGraph.ts"
import { finishEndEvent } from "../elements/events/EndEventCompletion.ts"
import { type ListenerProgress, type Token, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

const createListenerJob = (
  run: Run,
  token: Token,
  node: GraphNode,
  listener: ListenerDefinition,
  progress: ListenerProgress,
  variables: Readonly<Record<string, unknown>>
) =>
  run.emit({
    type: "JobCreated",
    tokenId: token.id,
    nodeId: node.id,
    jobId: run.newId("job"),
    jobType: listener.type,
    retries: listener.retries,
    headers: {},
    variables,
    listener: progress
  })

/** Starts the element's start listeners if it has some that have not run: true while the element waits for them. */
export function startListenersPending(
  run: Run,
  token: Token,
  node: GraphNode,
  variables: Readonly<Record<string, unknown>>
): boolean {
  const first = node.listeners?.start[0]
  if (first === undefined || token.listenersDone !== undefined) return false
  createListenerJob(run, token, node, first, { phase: "start", index: 0, flows: [] }, variables)
  return true
}

/** Starts the element's end listeners if it has some that have not run: true while the element waits for them. */
export function endListenersPending(run: Run, token: Token, node: GraphNode, flows: ReadonlyArray<string>): boolean {
  const first = node.listeners?.end[0]
  if (first === undefined || token.listenersDone === "end") return false
  const variables = { ...visibleVariables(run.state, token.scopeId), ...token.locals }
  createListenerJob(run, token, node, first, { phase: "end", index: 0, flows }, variables)
  return true
}

/** A listener's job completed: the next listener, or the element goes on (runs, or leaves by its flows). */
export function listenerJobCompleted(
  run: Run,
  token: Token,
  jobId: string,
  variables: Readonly<Record<string, unknown>>
): void {
  const progress = token.listener!
  const node = run.node(token.nodeId)
  run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: node.id, jobId, variables })
  if (Object.keys(variables).length > 0) run.propagate(token.scopeId, node.id, variables)
  const current = run.state.tokens[token.id]!
  const next = node.listeners![progress.phase][progress.index + 1]
  if (next !== undefined) {
    const seen = { ...visibleVariables(run.state, current.scopeId), ...current.locals }
    return createListenerJob(run, current, node, next, { ...progress, index: progress.index + 1 }, seen)
  }
  run.emit({ type: "ExecutionListenersDone", tokenId: token.id, nodeId: node.id, phase: progress.phase })
  if (progress.phase === "start") return void run.work.push(() => run.activate(token.id))
  const done = run.state.tokens[token.id]!
  if (node.type === "endEvent") return finishEndEvent(run, done, node)
  run.leave(done, node, progress.flows)
}

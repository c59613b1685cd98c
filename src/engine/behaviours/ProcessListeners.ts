// Execution listeners on the process itself (Camunda 8.6+). Start ones run, one after another, before the start event
// is entered — for every start: none, message, signal, timer, conditional start events and a call activity's child —
// and end ones after the last element of the instance ended, before the instance completes. Each is a job of its type
// held by a token of the instance's scope at the process's id (the job's element is the process, as in Zeebe); that
// token keeps the instance from completing while they run. Their variables go to the instance. A failed listener
// follows the job rules (retries, then an incident; retrying lets it run again). Canceling the instance withdraws a
// running listener job and runs no end listeners.
import type { ProcessListeners } from "../../bpmn/ProcessGraph.ts"
import { type Token, visibleVariables } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"
import { createListenerJob, type ListenerJobCompleted } from "./Listeners.ts"

/** A token holding a listener of the process itself (at the process's id, which no element of the graph has). */
export const isProcessListener = (run: Run, token: Token): boolean =>
  token.nodeId === run.graph.key && run.graph.nodes[token.nodeId] === undefined

const holdListener = (run: Run, phase: keyof ProcessListeners, startNodeId: string | null): boolean => {
  const first = run.graph.listeners?.[phase][0]
  if (first === undefined) return false
  const tokenId = run.newId("token")
  const process = { id: run.graph.key }
  run.emit({ type: "ElementActivated", tokenId, nodeId: process.id, scopeId: run.state.instanceId, viaFlow: null })
  const holder = run.state.tokens[tokenId]!
  // Start listeners keep the start event to enter once they have run (in `flows`).
  const progress = { phase, index: 0, flows: startNodeId === null ? [] : [startNodeId] }
  createListenerJob(run, holder, process, first, progress, visibleVariables(run.state, run.state.instanceId))
  return true
}

/** A new instance: its start listeners run first, if it has some; then its start event is entered. */
export function startProcess(run: Run, startNodeId: string): void {
  if (!holdListener(run, "start", startNodeId)) run.enter(startNodeId, null, run.state.instanceId)
}

/** The instance's last element ended: its end listeners start, if it has some (true while it waits for them). */
export const processEndListenersPending = (run: Run): boolean => holdListener(run, "end", null)

/** A process listener's job completed: the next listener, or the start event is entered, or the instance completes. */
export const processListenerCompleted: ListenerJobCompleted = (run, token, jobId, variables, result) => {
  if (result !== undefined) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `job ${jobId} is a process execution listener's: it takes no result`,
      "result"
    )
  }
  const progress = token.listener!
  const process = { id: token.nodeId }
  run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: process.id, jobId, variables })
  if (Object.keys(variables).length > 0) run.propagate(run.state.instanceId, process.id, variables)
  const phase = progress.phase === "start" ? "start" : "end"
  const next = run.graph.listeners?.[phase][progress.index + 1]
  if (next !== undefined) {
    const advanced = { ...progress, index: progress.index + 1 }
    const current = run.state.tokens[token.id]!
    return createListenerJob(run, current, process, next, advanced, visibleVariables(run.state, run.state.instanceId))
  }
  run.emit({ type: "ExecutionListenersDone", tokenId: token.id, nodeId: process.id, phase })
  run.emit({ type: "ElementCompleted", tokenId: token.id, nodeId: process.id })
  if (phase === "start") return run.enter(progress.flows[0]!, null, run.state.instanceId)
  // A token moved into the instance meanwhile (token moves) keeps it running: it completes when that one ends.
  if (Object.keys(run.state.tokens).length === 0) run.emit({ type: "InstanceCompleted" })
}

/** A process listener's incident is resolved by retrying it (there is no element to skip). */
export function checkProcessListenerAction(run: Run, token: Token, action: "retry" | "skip"): void {
  if (action !== "retry" && isProcessListener(run, token)) {
    throw new Rejected("INVALID_ARGUMENT", "a process execution listener's incident can only be retried", "action")
  }
}

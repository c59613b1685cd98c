// Execution listeners (zeebe:executionListeners, Camunda 8.6+) on activities, gateways and events: each is a job of
// its type that the element waits for — start listeners before the element runs, end listeners after it completed
// (its output mappings applied) and before it leaves; on the process itself, before its start event is entered and
// before the instance completes. Checked here at deploy; run by engine/behaviours/Listeners.ts and
// ProcessListeners.ts.
import type { DraftListener, DraftNode } from "./Draft.ts"
import type { GraphNode, ListenerDefinition, ProcessListeners, UserTaskNode } from "./ProcessGraph.ts"
import { MAX_JOB_RETRIES } from "./StoredRanges.ts"

/** Elements whose start is an event that happened rather than a token arriving: they have no start listeners. */
const NO_START: ReadonlySet<string> = new Set(["boundaryEvent", "startEvent"])

export const compileListeners = (
  node: DraftNode,
  problem: (elementId: string, message: string) => void
): Pick<UserTaskNode, "listeners" | "taskListeners"> => ({
  ...compileExecutionListeners(node, problem),
  ...compileTaskListeners(node, problem)
})

/** Camunda 8.8's names of user task listener events, and the older 8.7 ones. */
const TASK_EVENTS: Readonly<Record<string, "creating" | "assigning" | "updating" | "completing" | "canceling">> = {
  creating: "creating",
  create: "creating",
  assigning: "assigning",
  assignment: "assigning",
  updating: "updating",
  completing: "completing",
  complete: "completing",
  canceling: "canceling"
}

const listenerOf = (draft: DraftListener, node: DraftNode, problem: (elementId: string, message: string) => void) => {
  const type = draft.type?.trim() ?? ""
  const retries = draft.retries === null || draft.retries.trim() === "" ? 3 : Number(draft.retries)
  if (type === "") problem(node.id, "a listener needs a job type (type)")
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_JOB_RETRIES) {
    problem(
      node.id,
      `listener ${type}: retries must be a whole number from 0 to ${MAX_JOB_RETRIES}, not "${draft.retries}"`
    )
  }
  return { type, retries }
}

/** User task listeners of Camunda 8.8's five events (and 8.7's names); another eventType is refused by name. */
const compileTaskListeners = (
  node: DraftNode,
  problem: (elementId: string, message: string) => void
): Pick<UserTaskNode, "taskListeners"> => {
  const drafts = node.taskListeners ?? []
  if (drafts.length === 0) return {}
  const phases = {
    creating: [] as Array<ListenerDefinition>,
    assigning: [] as Array<ListenerDefinition>,
    updating: [] as Array<ListenerDefinition>,
    completing: [] as Array<ListenerDefinition>,
    canceling: [] as Array<ListenerDefinition>
  }
  for (const draft of drafts) {
    const phase = TASK_EVENTS[draft.eventType ?? ""]
    if (phase === undefined) {
      problem(
        node.id,
        `user task listeners (zeebe:taskListeners) of eventType "${draft.eventType}" are not executed by this engine (creating, assigning, updating, completing and canceling are); remove them to deploy`
      )
    } else phases[phase].push(listenerOf(draft, node, problem))
  }
  const { creating, assigning, updating, completing, canceling } = phases
  return {
    taskListeners: {
      creating,
      completing,
      ...(assigning.length === 0 ? {} : { assigning }),
      ...(updating.length === 0 ? {} : { updating }),
      ...(canceling.length === 0 ? {} : { canceling })
    }
  }
}

const compileExecutionListeners = (
  node: DraftNode,
  problem: (elementId: string, message: string) => void
): Pick<GraphNode, "listeners"> => {
  const drafts = node.listeners ?? []
  if (drafts.length === 0) return {}
  if (node.multiInstance != null) {
    problem(node.id, `execution listeners on multi-instance ${node.id} are not executed yet; remove them to deploy`)
  }
  return { listeners: startAndEnd(drafts, node.id, NO_START.has(node.type) ? node.type : null, problem) }
}

/**
 * Execution listeners on the process itself: start ones run before its start event is entered (whichever start
 * event: none, message, signal, timer, conditional, or a call activity's), end ones after its last element ended.
 */
export const compileProcessListeners = (
  drafts: ReadonlyArray<DraftListener>,
  processId: string,
  problem: (elementId: string, message: string) => void
): ProcessListeners | undefined =>
  drafts.length === 0 ? undefined : startAndEnd(drafts, processId || "process", null, problem)

/** Start and end listeners in document order; `noStart` names an element type that has no start listeners. */
const startAndEnd = (
  drafts: ReadonlyArray<DraftListener>,
  elementId: string,
  noStart: string | null,
  problem: (elementId: string, message: string) => void
): ProcessListeners => {
  const start: Array<ListenerDefinition> = []
  const end: Array<ListenerDefinition> = []
  for (const draft of drafts) {
    const type = draft.type?.trim() ?? ""
    const retries = draft.retries === null || draft.retries.trim() === "" ? 3 : Number(draft.retries)
    if (type === "") problem(elementId, "an execution listener needs a job type (type)")
    if (!Number.isInteger(retries) || retries < 0 || retries > MAX_JOB_RETRIES) {
      problem(
        elementId,
        `execution listener ${type}: retries must be a whole number from 0 to ${MAX_JOB_RETRIES}, not "${draft.retries}"`
      )
    }
    if (draft.eventType === "start" && noStart !== null) {
      problem(elementId, `a ${noStart} has no start execution listeners (it starts by its event): use eventType="end"`)
    } else if (draft.eventType === "start") start.push({ type, retries })
    else if (draft.eventType === "end") end.push({ type, retries })
    else problem(elementId, `execution listener ${type}: eventType must be "start" or "end", not "${draft.eventType}"`)
  }
  return { start, end }
}

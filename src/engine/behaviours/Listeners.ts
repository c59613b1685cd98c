// Listeners: jobs an element waits for. Execution listeners — the start ones, one after another, before the element
// runs (after its input mappings; boundary events are armed only then), the end ones after it completed (output
// mappings applied) and before it leaves. User task listeners (Camunda 8.8) — creating ones before the task exists
// (they may correct its assignee, candidates, dates, priority); completing ones before a completion takes effect
// (they may deny it: the task stays open); assigning ones before a new assignee takes effect (they may correct it, or
// deny it: the task keeps its assignee); updating ones before a change of its candidates, dates or priority takes
// effect (they may correct the changes, or deny them); canceling ones after the task was canceled while its instance
// goes on (held by a token of their own in the nearest scope still running, which waits for them). A listener job's
// variables go where an activity's would; a failed one follows the job rules (retries, then an incident; resolving
// it lets the listener run again).
import { parseDateTime } from "../../bpmn/CalendarDates.ts"
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import type { GraphNode, ListenerDefinition } from "../../bpmn/ProcessGraph.ts"
import { DUE_RANGE, isSchedulable } from "../../bpmn/StoredRanges.ts"
import { finishEndEvent } from "../elements/events/EndEventCompletion.ts"
import { createUserTask } from "../elements/tasks/UserTaskCreation.ts"
import type { InstanceCommand, TaskChanges } from "../InstanceCommands.ts"
import { type ListenerProgress, type Token, visibleVariables } from "../InstanceState.ts"
import { ownVariables } from "../OwnVariables.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

type JobResult = NonNullable<Extract<InstanceCommand, { type: "CompleteJob" }>["result"]>

/** A listener's job completed (an element's, a user task's or the process's listener): its variables and result. */
export type ListenerJobCompleted = (
  run: Run,
  token: Token,
  jobId: string,
  variables: Readonly<Record<string, unknown>>,
  result: JobResult | undefined
) => void

/**
 * A listener's job, held by the token (`node`: the element it listens to, or the process by its id). It records its
 * own variables (OwnVariables.ts) of `seen`, what the listener sees; its worker gets all it sees at activation.
 */
export const createListenerJob = (
  run: Run,
  token: Token,
  node: { readonly id: string; readonly inputs?: ReadonlyArray<{ readonly target: string }> },
  listener: ListenerDefinition,
  progress: ListenerProgress,
  seen: Readonly<Record<string, unknown>>
) =>
  run.emit({
    type: "JobCreated",
    tokenId: token.id,
    nodeId: node.id,
    jobId: run.newId("job"),
    jobType: listener.type,
    retries: listener.retries,
    headers: listenerHeaders(progress),
    variables: ownVariables(run.state, token, node, seen),
    listener: progress
  })

/** What a user task listener learns of the task by its job's custom headers (as Zeebe's listener jobs do). */
const listenerHeaders = (progress: ListenerProgress): Record<string, string> => {
  const task = { "io.camunda.zeebe:userTaskKey": progress.taskId ?? "" }
  if (progress.phase === "assigning") return { ...task, "io.camunda.zeebe:assignee": progress.assignee ?? "" }
  if (progress.phase === "canceling") return task
  if (progress.phase !== "updating") return {}
  const changes = Object.entries(progress.changes ?? {})
  return {
    ...task,
    "io.camunda.zeebe:changedAttributes": JSON.stringify(changes.map(([name]) => name)),
    ...Object.fromEntries(
      changes.map((
        [name, value]
      ) => [`io.camunda.zeebe:${name}`, typeof value === "string" ? value : JSON.stringify(value)])
    )
  }
}

const listenersOf = (node: GraphNode, phase: ListenerProgress["phase"]): ReadonlyArray<ListenerDefinition> =>
  phase === "start" || phase === "end" ? node.listeners?.[phase] ?? [] : node.type === "userTask"
    ? node.taskListeners?.[phase] ?? []
    : []

const seenBy = (run: Run, token: Token) => ({ ...visibleVariables(run.state, token.scopeId), ...token.locals })

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
  createListenerJob(run, token, node, first, { phase: "end", index: 0, flows }, seenBy(run, token))
  return true
}

/** Starts a user task's creating, assigning, updating or completing listeners, if it has some: true while it waits. */
export function startTaskListeners(
  run: Run,
  token: Token,
  node: GraphNode,
  phase: "creating" | "assigning" | "updating" | "completing",
  context: {
    readonly visible?: Readonly<Record<string, unknown>>
    readonly taskId?: string
    readonly variables?: Readonly<Record<string, unknown>>
    readonly assignee?: string | null
    readonly changes?: TaskChanges
  }
): boolean {
  const first = listenersOf(node, phase)[0]
  if (first === undefined) return false
  const progress: ListenerProgress = {
    phase,
    index: 0,
    flows: [],
    ...(phase === "creating"
      ? { corrections: {} }
      : phase === "assigning"
      ? { taskId: context.taskId, assignee: context.assignee ?? null }
      : phase === "updating"
      ? { taskId: context.taskId, changes: context.changes ?? {} }
      : { taskId: context.taskId, variables: context.variables ?? {} })
  }
  createListenerJob(run, token, node, first, progress, context.visible ?? seenBy(run, token))
  return true
}

/**
 * A user task was canceled (its token terminated): its canceling listeners, if it has some, run afterwards, held by a
 * token at the task's node in the nearest scope still running — that scope waits for them. When the instance itself
 * ended (canceled, terminated, completed), they do not run: nothing is left to hold them.
 */
export function cancelingListenersAfter(run: Run, token: Token, taskId: string): void {
  const node = run.node(token.nodeId)
  const first = listenersOf(node, "canceling")[0]
  if (first === undefined) return
  // The task's scopes, innermost first, while they still exist: the ones ending with it are gone once this runs.
  const enclosing: Array<string> = []
  for (let scope = run.state.scopes[token.scopeId]; scope !== undefined; scope = run.state.scopes[scope.parentId]) {
    enclosing.push(scope.id)
  }
  run.work.push(() => {
    const scopeId = enclosing.find((id) => run.state.scopes[id] !== undefined) ?? run.state.instanceId
    const tokenId = run.newId("token")
    run.emit({ type: "ElementActivated", tokenId, nodeId: node.id, scopeId, viaFlow: null })
    const holder = run.state.tokens[tokenId]!
    createListenerJob(
      run,
      holder,
      node,
      first,
      { phase: "canceling", index: 0, flows: [], taskId },
      seenBy(run, holder)
    )
  })
}

/** A token holding a user task's assigning or completing listener ended: the task is canceled with it. */
export function cancelListenedTask(run: Run, token: Token): void {
  const taskId = token.listener?.phase === "canceling" ? undefined : token.listener?.taskId
  if (taskId === undefined) return
  run.emit({ type: "UserTaskCanceled", tokenId: token.id, nodeId: token.nodeId, taskId })
  cancelingListenersAfter(run, token, taskId)
}

/** A listener's job completed: the next listener, or the element goes on (runs, leaves, is created, completes). */
export const listenerJobCompleted: ListenerJobCompleted = (run, token, jobId, variables, result) => {
  const progress = token.listener!
  const node = run.node(token.nodeId)
  run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: node.id, jobId, variables })
  if (Object.keys(variables).length > 0) run.propagate(token.scopeId, node.id, variables)
  const current = run.state.tokens[token.id]!
  if (progress.phase === "canceling" && (result?.denied !== undefined || result?.corrections !== undefined)) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      "a canceling listener can neither deny nor correct: the task is canceled",
      "result"
    )
  }
  const denial = progress.phase === "completing"
    ? "UserTaskCompletionDenied"
    : progress.phase === "assigning"
    ? "UserTaskAssignmentDenied"
    : progress.phase === "updating"
    ? "UserTaskUpdateDenied"
    : undefined
  if (denial !== undefined && result?.denied === true) {
    return run.emit({
      type: denial,
      tokenId: token.id,
      nodeId: node.id,
      taskId: progress.taskId!,
      reason: result.deniedReason ?? ""
    })
  }
  const corrections = progress.phase === "creating" ? { ...progress.corrections, ...result?.corrections } : undefined
  const assignee = progress.phase === "assigning" ? correctedAssignee(progress, result) : undefined
  const changes = progress.phase === "updating" ? correctedChanges(progress, result) : undefined
  const next = listenersOf(node, progress.phase)[progress.index + 1]
  if (next !== undefined) {
    const advanced = {
      ...progress,
      index: progress.index + 1,
      ...(corrections === undefined ? {} : { corrections }),
      ...(assignee === undefined ? {} : { assignee }),
      ...(changes === undefined ? {} : { changes })
    }
    return createListenerJob(run, current, node, next, advanced, seenBy(run, current))
  }
  const corrected = {
    ...progress,
    ...(assignee === undefined ? {} : { assignee }),
    ...(changes === undefined ? {} : { changes })
  }
  finishListeners(run, current, node, corrected, corrections)
}

/** An updating listener corrects the changes (not the assignee: an update does not assign). */
const correctedChanges = (progress: ListenerProgress, result: JobResult | undefined): TaskChanges => {
  const { assignee, ...changes } = result?.corrections ?? {}
  if (assignee !== undefined) {
    throw new Rejected("INVALID_ARGUMENT", "an updating listener cannot correct the assignee", "result.corrections")
  }
  return { ...progress.changes, ...checkedChanges(changes, "result.corrections") }
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** Changes of a task as the task keeps them: dates ISO 8601 with an offset (stored in UTC), priority 0..100. */
export function checkedChanges(changes: TaskChanges, field: string): TaskChanges {
  const date = (name: "dueDate" | "followUpDate") => {
    const value = changes[name]
    if (value === undefined || value === null) return value === undefined ? {} : { [name]: null }
    // within the years the task's timestamptz columns hold
    if (!ISO_DATE_TIME.test(value) || !isSchedulable(parseDateTime(value))) {
      throw new Rejected(
        "INVALID_ARGUMENT",
        `${name} must be an ISO 8601 date-time with offset within ${DUE_RANGE}, not "${value}"`,
        field
      )
    }
    return { [name]: new Date(value).toISOString() }
  }
  if (changes.priority !== undefined && (changes.priority < 0 || changes.priority > 100)) {
    throw new Rejected("INVALID_ARGUMENT", `priority must be 0..100, not ${changes.priority}`, field)
  }
  return { ...changes, ...date("dueDate"), ...date("followUpDate") }
}

/** An assigning listener corrects the assignee only (the task's other properties are not part of an assignment). */
const correctedAssignee = (progress: ListenerProgress, result: JobResult | undefined): string | null => {
  const { assignee, ...others } = result?.corrections ?? {}
  const named = Object.keys(others)
  if (named.length > 0) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `an assigning listener can correct only the assignee, not ${named.join(", ")}`,
      "result.corrections"
    )
  }
  return assignee === undefined ? progress.assignee ?? null : assignee
}

const finishListeners = (
  run: Run,
  token: Token,
  node: GraphNode,
  progress: ListenerProgress,
  corrections: ListenerProgress["corrections"]
) => {
  if (progress.phase === "creating") {
    return createUserTask(run, token, nodeOf(run.graph, node.id, "userTask"), seenBy(run, token), corrections ?? {})
  }
  if (progress.phase === "assigning") {
    const assignee = progress.assignee ?? null
    return run.emit({
      type: "UserTaskAssigned",
      tokenId: token.id,
      nodeId: node.id,
      taskId: progress.taskId!,
      assignee
    })
  }
  if (progress.phase === "updating") {
    const changes = progress.changes ?? {}
    return run.emit({ type: "UserTaskUpdated", tokenId: token.id, nodeId: node.id, taskId: progress.taskId!, changes })
  }
  if (progress.phase === "completing") {
    const variables = progress.variables ?? {}
    run.emit({ type: "UserTaskCompleted", tokenId: token.id, nodeId: node.id, taskId: progress.taskId!, variables })
    return run.finishActivity(run.state.tokens[token.id]!, node, variables)
  }
  if (progress.phase === "canceling") {
    run.emit({ type: "ElementTerminated", tokenId: token.id, nodeId: node.id })
    return run.completeScopeIfDone(token.scopeId)
  }
  run.emit({ type: "ExecutionListenersDone", tokenId: token.id, nodeId: node.id, phase: progress.phase })
  if (progress.phase === "start") return void run.work.push(() => run.activate(token.id))
  const done = run.state.tokens[token.id]!
  if (node.type === "endEvent") return finishEndEvent(run, done, node)
  run.leave(done, node, progress.flows)
}

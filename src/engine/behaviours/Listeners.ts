// Listeners: jobs an element waits for. Execution listeners — the start ones, one after another, before the element
// runs (after its input mappings; boundary events are armed only then), the end ones after it completed (output
// mappings applied) and before it leaves. User task listeners (Camunda 8.8) — creating ones before the task exists
// (they may correct its assignee, candidates, dates, priority), completing ones before a completion takes effect (they
// may deny it: the task stays open), assigning ones before a new assignee takes effect (they may correct it, or deny
// it: the task keeps its assignee). A listener job's variables go where an activity's would; a failed one follows the
// job rules (retries, then an incident; resolving it lets the listener run again).
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import type { GraphNode, ListenerDefinition } from "../../bpmn/ProcessGraph.ts"
import { finishEndEvent } from "../elements/events/EndEventCompletion.ts"
import { createUserTask } from "../elements/tasks/UserTaskCreation.ts"
import type { InstanceCommand } from "../InstanceCommands.ts"
import { type ListenerProgress, type Token, visibleVariables } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

type JobResult = NonNullable<Extract<InstanceCommand, { type: "CompleteJob" }>["result"]>

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
    // Assigning listeners learn the task and the assignee asked for as Zeebe's listener jobs do, by custom headers.
    headers: progress.phase === "assigning"
      ? { "io.camunda.zeebe:userTaskKey": progress.taskId ?? "", "io.camunda.zeebe:assignee": progress.assignee ?? "" }
      : {},
    variables,
    listener: progress
  })

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

/** Starts a user task's creating, assigning or completing listeners, if it has some: true while it waits for them. */
export function startTaskListeners(
  run: Run,
  token: Token,
  node: GraphNode,
  phase: "creating" | "assigning" | "completing",
  context: {
    readonly visible?: Readonly<Record<string, unknown>>
    readonly taskId?: string
    readonly variables?: Readonly<Record<string, unknown>>
    readonly assignee?: string | null
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
      : { taskId: context.taskId, variables: context.variables ?? {} })
  }
  createListenerJob(run, token, node, first, progress, context.visible ?? seenBy(run, token))
  return true
}

/** A listener's job completed: the next listener, or the element goes on (runs, leaves, is created, completes). */
export function listenerJobCompleted(
  run: Run,
  token: Token,
  jobId: string,
  variables: Readonly<Record<string, unknown>>,
  result: JobResult | undefined
): void {
  const progress = token.listener!
  const node = run.node(token.nodeId)
  run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: node.id, jobId, variables })
  if (Object.keys(variables).length > 0) run.propagate(token.scopeId, node.id, variables)
  const current = run.state.tokens[token.id]!
  if ((progress.phase === "completing" || progress.phase === "assigning") && result?.denied === true) {
    return run.emit({
      type: progress.phase === "completing" ? "UserTaskCompletionDenied" : "UserTaskAssignmentDenied",
      tokenId: token.id,
      nodeId: node.id,
      taskId: progress.taskId!,
      reason: result.deniedReason ?? ""
    })
  }
  const corrections = progress.phase === "creating" ? { ...progress.corrections, ...result?.corrections } : undefined
  const assignee = progress.phase === "assigning" ? correctedAssignee(progress, result) : undefined
  const next = listenersOf(node, progress.phase)[progress.index + 1]
  if (next !== undefined) {
    const advanced = {
      ...progress,
      index: progress.index + 1,
      ...(corrections === undefined ? {} : { corrections }),
      ...(assignee === undefined ? {} : { assignee })
    }
    return createListenerJob(run, current, node, next, advanced, seenBy(run, current))
  }
  finishListeners(run, current, node, assignee === undefined ? progress : { ...progress, assignee }, corrections)
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
  if (progress.phase === "completing") {
    const variables = progress.variables ?? {}
    run.emit({ type: "UserTaskCompleted", tokenId: token.id, nodeId: node.id, taskId: progress.taskId!, variables })
    return run.finishActivity(run.state.tokens[token.id]!, node, variables)
  }
  run.emit({ type: "ExecutionListenersDone", tokenId: token.id, nodeId: node.id, phase: progress.phase })
  if (progress.phase === "start") return void run.work.push(() => run.activate(token.id))
  const done = run.state.tokens[token.id]!
  if (node.type === "endEvent") return finishEndEvent(run, done, node)
  run.leave(done, node, progress.flows)
}

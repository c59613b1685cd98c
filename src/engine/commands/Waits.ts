// The answers to what a token waits on: a job completed, a user task completed, a message correlated, a signal
// triggered, a timer fired. An armed boundary / event-gateway / event-subprocess subscription triggers its event
// instead. While the instance is suspended the answer is held and applied on resume, in arrival order.
import { isController, workerAnswered } from "../behaviours/AdHocWorker.ts"
import { listenerJobCompleted, startTaskListeners } from "../behaviours/Listeners.ts"
import { isProcessListener, processListenerCompleted } from "../behaviours/ProcessListeners.ts"
import type { InstanceState, Token } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"
import { tokenWaitingFor } from "./AwaitedToken.ts"
import type { CommandOf } from "./Handler.ts"

type Answer = CommandOf<"CompleteJob" | "CompleteUserTask" | "CorrelateMessage" | "TriggerSignal" | "FireTimer">

/** The token waiting at the task; a task whose completing (or assigning) listeners are running cannot be completed. */
const taskToComplete = (run: Run, taskId: string) => {
  const running = Object.values(run.state.tokens).find((t) => t.listener?.taskId === taskId)?.listener?.phase
  if (running !== undefined) {
    throw new Rejected(
      "INVALID_STATE",
      `task ${taskId} is being ${
        running === "assigning" ? "assigned" : running === "updating" ? "updated" : "completed"
      }: its listeners are running`
    )
  }
  return tokenWaitingFor(run.state, "userTask", taskId)
}

const waitingToken = (run: Run, command: Answer) =>
  command.type === "CompleteJob"
    ? tokenWaitingFor(run.state, "job", command.jobId)
    : command.type === "CompleteUserTask"
    ? taskToComplete(run, command.taskId)
    : command.type === "TriggerSignal"
    ? tokenWaitingFor(run.state, "signal", command.subscriptionId)
    : command.type === "FireTimer"
    ? tokenWaitingFor(run.state, "timer", command.subscriptionId)
    : tokenWaitingFor(run.state, "message", command.subscriptionId)

/** The ad-hoc subprocess's worker answered (its job's result says what to activate, or that it is done). */
const workerJobCompleted = (run: Run, token: Token, command: CommandOf<"CompleteJob">) => {
  const { jobId, variables } = command
  run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: token.nodeId, jobId, variables })
  workerAnswered(run, run.state.tokens[token.id]!, variables, command.result)
  return run.drain()
}

export const answerWait = (run: Run, command: Answer, status: InstanceState["status"]): void => {
  if (
    command.type !== "CompleteJob" && command.type !== "CompleteUserTask" &&
    run.state.boundaries?.[command.subscriptionId] !== undefined
  ) {
    if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
    run.triggerBoundary(command.subscriptionId, command.type === "FireTimer" ? {} : command.variables)
    return run.drain()
  }
  const token = waitingToken(run, command)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  if (command.type === "CompleteJob" && isProcessListener(run, token)) {
    processListenerCompleted(run, token, command.jobId, command.variables, command.result)
    return run.drain()
  }
  const node = run.node(token.nodeId)
  if (command.type === "CompleteJob" && node.type === "adHocSubProcess" && isController(run, token)) {
    return workerJobCompleted(run, token, command)
  }
  const phase = token.listener?.phase
  const userTaskListener = phase !== undefined && phase !== "start" && phase !== "end"
  if (
    command.type === "CompleteJob" && token.listener !== undefined && (command.result === undefined || userTaskListener)
  ) {
    listenerJobCompleted(run, token, command.jobId, command.variables, command.result)
    return run.drain()
  }
  if (command.type === "CompleteJob" && command.result !== undefined) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `job ${command.jobId} is neither an ad-hoc subprocess's nor a user task listener's: it takes no result`,
      "result"
    )
  }
  // Completing listeners run before the completion takes effect (and may deny it).
  if (
    command.type === "CompleteUserTask" &&
    startTaskListeners(run, token, node, "completing", { taskId: command.taskId, variables: command.variables })
  ) return run.drain()
  if (command.type === "CompleteJob") {
    run.emit({
      type: "JobCompleted",
      tokenId: token.id,
      nodeId: node.id,
      jobId: command.jobId,
      variables: command.variables
    })
  } else if (command.type === "FireTimer") {
    run.emit({ type: "TimerFired", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId })
  } else if (command.type === "TriggerSignal") {
    run.emit({
      type: "SignalTriggered",
      tokenId: token.id,
      nodeId: node.id,
      subscriptionId: command.subscriptionId,
      variables: command.variables
    })
  } else if (command.type === "CorrelateMessage") {
    run.emit({
      type: "MessageCorrelated",
      tokenId: token.id,
      nodeId: node.id,
      subscriptionId: command.subscriptionId,
      variables: command.variables
    })
  } else {
    run.emit({
      type: "UserTaskCompleted",
      tokenId: token.id,
      nodeId: node.id,
      taskId: command.taskId,
      variables: command.variables
    })
  }
  run.finishActivity(token, node, command.type === "FireTimer" ? {} : command.variables)
  return run.drain()
}

// The command that answers a token waiting at an element, with the given variables as its result: what Play sends
// when a person steps a session on, and what the simulator sends for the waits it answers itself.
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { Token } from "./InstanceState.ts"

export const answerFor = (token: Token, variables: Readonly<Record<string, unknown>>): InstanceCommand | undefined => {
  const wait = token.wait
  switch (wait?.kind) {
    case "job":
      return { type: "CompleteJob", jobId: wait.jobId, variables }
    case "userTask":
      return { type: "CompleteUserTask", taskId: wait.taskId, variables }
    case "timer":
      return { type: "FireTimer", subscriptionId: wait.subscriptionId }
    case "message":
      return { type: "CorrelateMessage", subscriptionId: wait.subscriptionId, variables }
    case "signal":
      return { type: "TriggerSignal", subscriptionId: wait.subscriptionId, variables }
    case "child":
      return { type: "ChildInstanceCompleted", childInstanceId: wait.childInstanceId, variables }
    case "decision":
      return { type: "DecisionEvaluated", evaluationId: wait.evaluationId, result: variables, outputs: variables }
    default:
      return undefined
  }
}

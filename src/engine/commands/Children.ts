// What a called instance tells its call activity: it completed (its variables come back), failed to start (an
// incident), threw an error or an escalation it did not catch itself.
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import { tokenWaitingFor } from "./AwaitedToken.ts"
import type { CommandHandler } from "./Handler.ts"

export const childInstanceFailed: CommandHandler<"ChildInstanceFailed"> = (run, command) => {
  run.raiseIncident(
    tokenWaitingFor(run.state, "child", command.childInstanceId),
    "CALLED_ELEMENT_ERROR",
    command.message
  )
}

/** An error the called instance did not catch: thrown at the call activity, as if the activity threw it. */
export const childErrorThrown: CommandHandler<"ChildErrorThrown"> = (run, command, status) => {
  const { childInstanceId, errorCode } = command
  const token = tokenWaitingFor(run.state, "child", childInstanceId)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  run.emit({ type: "ChildErrorReceived", tokenId: token.id, nodeId: token.nodeId, childInstanceId, errorCode })
  run.throwError(run.state.tokens[token.id]!, errorCode, command.errorMessage, command.variables)
  return run.drain()
}

export const childEscalated: CommandHandler<"ChildEscalated"> = (run, command, status) => {
  const token = tokenWaitingFor(run.state, "child", command.childInstanceId)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  run.throwEscalation(token, command.escalationCode)
  return run.drain()
}

export const childInstanceCompleted: CommandHandler<"ChildInstanceCompleted"> = (run, command, status) => {
  const { childInstanceId, variables } = command
  const token = tokenWaitingFor(run.state, "child", childInstanceId)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  const node = nodeOf(run.graph, token.nodeId, "callActivity")
  run.emit({ type: "ChildInstanceCompleted", tokenId: token.id, nodeId: node.id, childInstanceId, variables })
  // Zeebe: output mappings pick what comes back; without them, propagateAllChildVariables brings every child variable
  // back (default) or none.
  run.finishActivity(token, node, node.outputs.length > 0 || node.call.propagateAllChildVariables ? variables : {})
  return run.drain()
}

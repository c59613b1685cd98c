// The answer to a business rule task's decision: its outputs become variables (SERVICE.md: every output column, and
// the whole result in resultVariable), or the failure becomes an incident.
import { nodeOf } from "../../bpmn/GraphNodes.ts"
import { tokenWaitingFor } from "./AwaitedToken.ts"
import type { CommandHandler } from "./Handler.ts"

export const decisionFailed: CommandHandler<"DecisionFailed"> = (run, command) => {
  run.raiseIncident(
    tokenWaitingFor(run.state, "decision", command.evaluationId),
    "DECISION_EVALUATION_ERROR",
    command.message
  )
}

export const decisionEvaluated: CommandHandler<"DecisionEvaluated"> = (run, command, status) => {
  const token = tokenWaitingFor(run.state, "decision", command.evaluationId)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  const node = nodeOf(run.graph, token.nodeId, "businessRuleTask")
  run.emit({
    type: "DecisionEvaluated",
    tokenId: token.id,
    nodeId: node.id,
    evaluationId: command.evaluationId,
    result: command.result
  })
  run.finishActivity(token, node, { ...command.outputs, [node.decision.resultVariable]: command.result })
  return run.drain()
}

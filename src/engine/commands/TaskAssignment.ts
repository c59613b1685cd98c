// A new assignee for a user task (POST /tasks/{id}/assign, claim, unclaim) whose model has assigning listeners
// (Camunda 8.8): the listeners run first, one after another, and may correct the assignee or deny the assignment; the
// task's assignee changes once the last one has completed (UserTaskAssigned). Without listeners the assignment is
// recorded at once.
import { startTaskListeners } from "../behaviours/Listeners.ts"
import { Rejected } from "../Rejected.ts"
import type { CommandHandler } from "./Handler.ts"

export const assignUserTask: CommandHandler<"AssignUserTask"> = (run, command, status) => {
  const { taskId, assignee } = command
  if (Object.values(run.state.tokens).some((t) => t.listener?.taskId === taskId)) {
    throw new Rejected("INVALID_STATE", `task ${taskId} has listeners running: try again once they have completed`)
  }
  if (status !== "ACTIVE") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is suspended: resume it first`)
  }
  const token = run.tokenWaitingFor("userTask", taskId)
  const node = run.node(token.nodeId)
  if (startTaskListeners(run, token, node, "assigning", { taskId, assignee })) return run.drain()
  run.emit({ type: "UserTaskAssigned", tokenId: token.id, nodeId: node.id, taskId, assignee })
}

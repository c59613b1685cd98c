// Operations on an open user task that go through its instance (Camunda 8.8's user task listeners): a new assignee
// (POST /tasks/{id}/assign, claim, unclaim, for a task whose model has assigning listeners) and an update of its
// candidates, dates or priority (PATCH /tasks/{id}). The task's listeners of that event run first, one after another,
// and may correct or deny; the change takes effect once the last one has completed. Without listeners it is recorded
// at once.
import { checkedChanges, startTaskListeners } from "../behaviours/Listeners.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"
import { tokenWaitingFor } from "./AwaitedToken.ts"
import type { CommandHandler } from "./Handler.ts"

/** The token waiting at the task, which no listener holds and whose instance runs. */
const openTask = (run: Run, taskId: string, status: string) => {
  if (Object.values(run.state.tokens).some((t) => t.listener?.taskId === taskId)) {
    throw new Rejected("INVALID_STATE", `task ${taskId} has listeners running: try again once they have completed`)
  }
  if (status !== "ACTIVE") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is suspended: resume it first`)
  }
  return tokenWaitingFor(run.state, "userTask", taskId)
}

export const assignUserTask: CommandHandler<"AssignUserTask"> = (run, command, status) => {
  const { taskId, assignee } = command
  const token = openTask(run, taskId, status)
  const node = run.node(token.nodeId)
  if (startTaskListeners(run, token, node, "assigning", { taskId, assignee })) return run.drain()
  run.emit({ type: "UserTaskAssigned", tokenId: token.id, nodeId: node.id, taskId, assignee })
}

export const updateUserTask: CommandHandler<"UpdateUserTask"> = (run, command, status) => {
  const { taskId } = command
  const changes = checkedChanges(command.changes, "changes")
  const token = openTask(run, taskId, status)
  const node = run.node(token.nodeId)
  if (startTaskListeners(run, token, node, "updating", { taskId, changes })) return run.drain()
  run.emit({ type: "UserTaskUpdated", tokenId: token.id, nodeId: node.id, taskId, changes })
}

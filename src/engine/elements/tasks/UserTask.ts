// User tasks: a human task with its assignment (the assignee may be an expression), form, priority and schedule; the
// token waits for it. A priority or date expression whose value cannot be one is an incident, as in Camunda.
import type { UserTaskNode } from "../../../bpmn/ProcessGraph.ts"
import { startTaskListeners } from "../../behaviours/Listeners.ts"
import type { ActivateElement } from "../Element.ts"
import { createUserTask } from "./UserTaskCreation.ts"

export const userTask: ActivateElement<UserTaskNode> = ({ run, token, node, visible }) => {
  // Creating listeners run first and may correct the task (user task listeners, Camunda 8.8).
  if (startTaskListeners(run, token, node, "creating", { visible })) return
  createUserTask(run, token, node, visible, {})
}

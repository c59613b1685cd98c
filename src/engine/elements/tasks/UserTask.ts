// User tasks: a human task with its assignment (the assignee may be an expression), form, priority and schedule; the
// token waits for it. A priority or date expression whose value cannot be one is an incident, as in Camunda.
import { evaluateFeel } from "../../../bpmn/Expressions.ts"
import { resolveSchedule } from "../../../bpmn/TaskSchedule.ts"
import type { ActivateElement } from "../Element.ts"

export const userTask: ActivateElement = ({ run, token, node, visible }) => {
  const definition = node.userTask!
  const evaluate = (value: string | null): string | null => {
    if (value === null) return null
    const outcome = evaluateFeel(value, visible)
    return outcome.ok && outcome.value !== null ? String(outcome.value) : null
  }
  const schedule = resolveSchedule(definition.schedule, visible)
  if (!schedule.ok) return run.raiseIncident(token, "EXPRESSION_ERROR", `user task ${node.id}: ${schedule.message}`)
  run.emit({
    type: "UserTaskCreated",
    tokenId: token.id,
    nodeId: node.id,
    taskId: run.newId("task"),
    name: node.name,
    assignee: evaluate(definition.assignee),
    candidateGroups: definition.candidateGroups,
    candidateUsers: definition.candidateUsers,
    formKey: definition.formKey,
    ...schedule.value,
    variables: visible
  })
}

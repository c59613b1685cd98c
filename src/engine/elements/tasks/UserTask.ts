// User tasks: a human task with its assignment (the assignee may be an expression) and form; the token waits for it.
import { evaluateFeel } from "../../../bpmn/Expressions.ts"
import type { ActivateElement } from "../Element.ts"

export const userTask: ActivateElement = ({ run, token, node, visible }) => {
  const definition = node.userTask!
  const evaluate = (value: string | null): string | null => {
    if (value === null) return null
    const outcome = evaluateFeel(value, visible)
    return outcome.ok && outcome.value !== null ? String(outcome.value) : null
  }
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
    variables: visible
  })
}

// A user task is created: its assignment (the assignee may be an expression), form, priority and schedule resolved,
// then what its creating listeners corrected; the token waits for it. A priority or date expression whose value
// cannot be one is an incident, as in Camunda.
import { evaluateFeel } from "../../../bpmn/Expressions.ts"
import type { UserTaskNode } from "../../../bpmn/ProcessGraph.ts"
import { resolveSchedule } from "../../../bpmn/TaskSchedule.ts"
import type { TaskCorrections } from "../../InstanceCommands.ts"
import type { Token } from "../../InstanceState.ts"
import { ownVariables } from "../../OwnVariables.ts"
import type { Run } from "../../Run.ts"
import type { Variables } from "../Element.ts"

/** The corrections actually given (an absent one keeps the model's value). */
const defined = (corrections: TaskCorrections) =>
  Object.fromEntries(Object.entries(corrections).filter(([, value]) => value !== undefined)) as {
    readonly assignee?: string | null
    readonly candidateGroups?: ReadonlyArray<string>
    readonly candidateUsers?: ReadonlyArray<string>
    readonly dueDate?: string | null
    readonly followUpDate?: string | null
    readonly priority?: number
  }

/** The task itself, with what creating listeners corrected. */
export function createUserTask(
  run: Run,
  token: Token,
  node: UserTaskNode,
  visible: Variables,
  corrections: TaskCorrections
) {
  const definition = node.userTask
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
    ...(definition.formVersionTag == null ? {} : { formVersionTag: definition.formVersionTag }),
    ...(definition.formBinding === undefined ? {} : { formBinding: definition.formBinding }),
    ...schedule.value,
    ...defined(corrections),
    ...((node.taskListeners?.assigning?.length ?? 0) > 0 ? { assigningListeners: true } : {}),
    // Its own variables (OwnVariables.ts): a task list works out what the task sees when asked.
    variables: ownVariables(run.state, token, node, visible)
  })
}

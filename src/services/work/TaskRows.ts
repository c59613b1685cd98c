// The user tasks projection row, its API form, and the orderings of the task list.
import { fromJson } from "../../persistence/SqlValues.ts"
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import type { TaskSort, UserTask } from "../../schema/Work.ts"
import { isoFromDb, isoOrNull } from "../Time.ts"

export interface TaskRow {
  readonly id: string
  /** How often completing listeners denied a completion (absent before migration 0024). */
  readonly completion_denials?: unknown
  readonly name: string | null
  readonly state: UserTask["state"]
  readonly instance_id: ProcessInstanceId
  readonly node_id: string
  readonly assignee: string | null
  readonly candidate_groups: unknown
  readonly candidate_users: unknown
  readonly form_key: string | null
  /** The form's version tag when the task binds its form by one (absent before migration 0026). */
  readonly form_version_tag?: string | null
  readonly form_binding?: string | null
  readonly priority: unknown
  readonly due_date: unknown
  readonly follow_up_date: unknown
  readonly owner?: string | null
  readonly delegation_state?: "PENDING" | "RESOLVED" | null
  readonly variables: unknown
  readonly created_at: unknown
  readonly updated_at: unknown
  readonly completed_at: unknown
}

export const toTask = (row: TaskRow): UserTask => ({
  id: row.id,
  name: row.name,
  state: row.state,
  processInstanceId: row.instance_id,
  nodeId: row.node_id,
  assignee: row.assignee,
  candidateGroups: fromJson(row.candidate_groups),
  candidateUsers: fromJson(row.candidate_users),
  formKey: row.form_key,
  formVersionTag: row.form_version_tag ?? null,
  formBinding: row.form_binding === "deployment" ? "deployment" : null,
  priority: Number(row.priority),
  dueDate: isoOrNull(row.due_date),
  followUpDate: isoOrNull(row.follow_up_date),
  owner: row.owner ?? null,
  delegationState: row.delegation_state ?? null,
  variables: fromJson(row.variables),
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at),
  completedAt: isoOrNull(row.completed_at)
})

/** GET /tasks orderings: every one ends in a unique key so pages are stable. */
export const taskOrder: Record<TaskSort, string> = {
  createdAt: "created_at DESC, id DESC",
  priority: "priority DESC, created_at DESC, id DESC",
  dueDate: "due_date ASC NULLS LAST, created_at DESC, id DESC",
  followUpDate: "follow_up_date ASC NULLS LAST, created_at DESC, id DESC"
}

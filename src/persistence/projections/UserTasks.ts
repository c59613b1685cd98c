// The user tasks projection: what people see in their task lists.
import type { RowsStatement } from "../BatchWrites.ts"
import { pgArray, toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

interface ClosedTask {
  readonly id: string
  readonly tenant_id: string
  readonly state: "COMPLETED" | "CANCELED"
  readonly at: string
  readonly completed_at: string | null
}

const closeTasks: RowsStatement<ClosedTask> = {
  name: "close user tasks",
  phase: "update",
  key: (row) => row.id,
  run: (sql, rows) =>
    sql`UPDATE user_tasks AS t SET state = v.state, updated_at = v.at, completed_at = v.completed_at
      FROM jsonb_to_recordset(${toJson(rows)}::jsonb)
        AS v(id uuid, tenant_id uuid, state text, at timestamptz, completed_at timestamptz)
      WHERE t.id = v.id AND t.tenant_id = v.tenant_id AND t.id = ANY(${pgArray(rows.map((row) => row.id))}::uuid[])`
}

const closed =
  (state: ClosedTask["state"]) => ({ writes, tenantId, now }: ProjectionContext, event: { readonly taskId: string }) =>
    writes.rows(closeTasks, {
      id: event.taskId,
      tenant_id: tenantId,
      state,
      at: now,
      completed_at: state === "COMPLETED" ? now : null
    })

export const userTaskProjections: Projections = {
  UserTaskCreated: ({ writes, tenantId, instanceId, now }, event) =>
    writes.insert("user_tasks", {
      tenant_id: tenantId,
      id: event.taskId,
      instance_id: instanceId,
      node_id: event.nodeId,
      element_instance_id: event.tokenId,
      name: event.name,
      state: "CREATED",
      assignee: event.assignee,
      candidate_groups: toJson(event.candidateGroups),
      candidate_users: toJson(event.candidateUsers),
      form_key: event.formKey,
      form_version_tag: event.formVersionTag ?? null,
      priority: event.priority ?? 50,
      due_date: event.dueDate ?? null,
      follow_up_date: event.followUpDate ?? null,
      assigning_listeners: event.assigningListeners === true,
      variables: toJson(event.variables),
      created_at: now,
      updated_at: now,
      completed_at: null
    }),
  UserTaskCompleted: closed("COMPLETED"),
  UserTaskCompletionDenied: ({ writes, tenantId, now }, event) =>
    writes.then((sql) =>
      sql`UPDATE user_tasks SET completion_denials = completion_denials + 1, updated_at = ${now}
        WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`
    ),
  UserTaskCanceled: closed("CANCELED"),
  // The assignment its assigning listeners let through: it replaces the assignee and any delegation.
  UserTaskAssigned: ({ writes, tenantId, now }, event) =>
    writes.then((sql) =>
      sql`UPDATE user_tasks SET assignee = ${event.assignee}, owner = NULL, delegation_state = NULL, updated_at = ${now}
        WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`
    )
}

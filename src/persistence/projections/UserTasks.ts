// The user tasks projection: what people see in their task lists.
import type { RowsChange } from "../BatchWrites.ts"
import { jsonColumn, pgArray, toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

interface ClosedTask {
  readonly id: string
  readonly tenant_id: string
  readonly state: "COMPLETED" | "CANCELED"
  readonly at: string
  readonly completed_at: string | null
}

const closeTasks: RowsChange<ClosedTask> = {
  name: "close user tasks",
  phase: "update",
  table: "user_tasks",
  key: (row) => row.id,
  insertedKey: (row) => String(row["id"]),
  statement: (sql, rows) =>
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
      candidate_groups: jsonColumn(event.candidateGroups),
      candidate_users: jsonColumn(event.candidateUsers),
      form_key: event.formKey,
      form_version_tag: event.formVersionTag ?? null,
      form_binding: event.formBinding ?? null,
      priority: event.priority ?? 50,
      due_date: event.dueDate ?? null,
      follow_up_date: event.followUpDate ?? null,
      assigning_listeners: event.assigningListeners === true,
      variables: jsonColumn(event.variables),
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
  // An update (as its updating listeners let it through): only the attributes it changes.
  UserTaskUpdated: ({ writes, tenantId, now }, event) =>
    writes.then((sql) => {
      const { candidateGroups, candidateUsers, dueDate, followUpDate, priority } = event.changes
      return sql`UPDATE user_tasks SET
        candidate_groups = CASE WHEN ${candidateGroups !== undefined}::boolean THEN ${
        toJson(candidateGroups ?? [])
      }::jsonb ELSE candidate_groups END,
        candidate_users = CASE WHEN ${candidateUsers !== undefined}::boolean THEN ${
        toJson(candidateUsers ?? [])
      }::jsonb ELSE candidate_users END,
        due_date = CASE WHEN ${dueDate !== undefined}::boolean THEN ${dueDate ?? null}::timestamptz ELSE due_date END,
        follow_up_date = CASE WHEN ${followUpDate !== undefined}::boolean THEN ${
        followUpDate ?? null
      }::timestamptz ELSE follow_up_date END,
        priority = CASE WHEN ${priority !== undefined}::boolean THEN ${priority ?? 0}::integer ELSE priority END,
        updated_at = ${now}
        WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`
    }),
  // The assignment its assigning listeners let through: it replaces the assignee and any delegation.
  UserTaskAssigned: ({ writes, tenantId, now }, event) =>
    writes.then((sql) =>
      sql`UPDATE user_tasks SET assignee = ${event.assignee}, owner = NULL, delegation_state = NULL, updated_at = ${now}
        WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`
    )
}

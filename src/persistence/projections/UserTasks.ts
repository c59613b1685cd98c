// The user tasks projection: what people see in their task lists.
import { Effect } from "effect"
import { toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

const closed =
  (state: "COMPLETED" | "CANCELED") =>
  ({ sql, tenantId, now }: ProjectionContext, event: { readonly taskId: string }) =>
    sql`UPDATE user_tasks SET state = ${state}, updated_at = ${now}, completed_at = ${
      state === "COMPLETED" ? now : null
    }
    WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`.pipe(Effect.asVoid)

export const userTaskProjections: Projections = {
  UserTaskCreated: ({ sql, tenantId, instanceId, now }, event) =>
    sql`INSERT INTO user_tasks (tenant_id, id, instance_id, node_id, element_instance_id, name, state, assignee,
        candidate_groups, candidate_users, form_key, form_version_tag, priority, due_date, follow_up_date, variables,
        created_at, updated_at, completed_at)
      VALUES (${tenantId}, ${event.taskId}, ${instanceId}, ${event.nodeId}, ${event.tokenId}, ${event.name},
        'CREATED', ${event.assignee}, ${toJson(event.candidateGroups)}::jsonb, ${toJson(event.candidateUsers)}::jsonb,
        ${event.formKey}, ${event.formVersionTag ?? null}, ${event.priority ?? 50}, ${event.dueDate ?? null}, ${
      event.followUpDate ?? null
    },
        ${toJson(event.variables)}::jsonb, ${now}, ${now}, NULL)`.pipe(Effect.asVoid),
  UserTaskCompleted: closed("COMPLETED"),
  UserTaskCompletionDenied: ({ sql, tenantId, now }, event) =>
    sql`UPDATE user_tasks SET completion_denials = completion_denials + 1, updated_at = ${now}
      WHERE id = ${event.taskId} AND tenant_id = ${tenantId}`.pipe(Effect.asVoid),
  UserTaskCanceled: closed("CANCELED")
}

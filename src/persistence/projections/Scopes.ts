// The scopes projection (embedded subprocesses: GET /scopes/{scopeId}/variables finds its instance), and the rows a
// migrated token takes to its new node.
import { Effect } from "effect"
import type { Projections } from "./Projection.ts"

export const scopeProjections: Projections = {
  ScopeOpened: ({ sql, tenantId, instanceId, now }, event) =>
    sql`INSERT INTO instance_scopes (tenant_id, scope_id, instance_id, node_id, parent_scope_id, created_at)
      VALUES (${tenantId}, ${event.scopeId}, ${instanceId}, ${event.nodeId}, ${event.parentScopeId}, ${now})`.pipe(
      Effect.asVoid
    ),
  ScopeClosed: ({ sql, tenantId }, event) =>
    sql`DELETE FROM instance_scopes WHERE scope_id = ${event.scopeId} AND tenant_id = ${tenantId}`.pipe(Effect.asVoid),
  // Migration: the token's rows (job, task, subscription, incident, scope) now name the node of the target version.
  TokenMigrated: ({ sql, instanceId }, event) =>
    event.sourceNodeId === event.nodeId
      ? Effect.void
      : Effect.all([
        sql`UPDATE jobs SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE user_tasks SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE event_subscriptions SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE incidents SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE instance_scopes SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND node_id = ${event.sourceNodeId}`
      ], { discard: true })
}

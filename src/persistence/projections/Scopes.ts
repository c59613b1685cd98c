// The scopes projection (embedded subprocesses: GET /scopes/{scopeId}/variables finds its instance), and the rows a
// migrated token takes to its new node.
import { Effect } from "effect"
import type { RowsChange } from "../BatchWrites.ts"
import { pgArray, toJson } from "../SqlValues.ts"
import type { Projections } from "./Projection.ts"

interface ClosedScope {
  readonly scope_id: string
  readonly tenant_id: string
}

const closeScopes: RowsChange<ClosedScope> = {
  name: "close scopes",
  phase: "delete",
  table: "instance_scopes",
  key: (row) => row.scope_id,
  insertedKey: (row) => String(row["scope_id"]),
  statement: (sql, rows) =>
    sql`DELETE FROM instance_scopes AS s USING jsonb_to_recordset(${
      toJson(rows)
    }::jsonb) AS v(scope_id text, tenant_id uuid)
      WHERE s.scope_id = v.scope_id AND s.tenant_id = v.tenant_id
        AND s.scope_id = ANY(${pgArray(rows.map((row) => row.scope_id))}::text[])`
}

export const scopeProjections: Projections = {
  ScopeOpened: ({ writes, tenantId, instanceId, now }, event) =>
    writes.insert("instance_scopes", {
      tenant_id: tenantId,
      scope_id: event.scopeId,
      instance_id: instanceId,
      node_id: event.nodeId,
      parent_scope_id: event.parentScopeId,
      created_at: now
    }),
  ScopeClosed: ({ writes, tenantId }, event) =>
    writes.rows(closeScopes, { scope_id: event.scopeId, tenant_id: tenantId }),
  // Migration: the token's rows (job, task, subscription, incident, scope) now name the node of the target version.
  TokenMigrated: ({ writes, instanceId }, event) => {
    if (event.sourceNodeId === event.nodeId) return
    writes.then((sql) =>
      Effect.all([
        sql`UPDATE jobs SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE user_tasks SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE event_subscriptions SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE incidents SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${event.tokenId} AND node_id = ${event.sourceNodeId}`,
        sql`UPDATE instance_scopes SET node_id = ${event.nodeId} WHERE instance_id = ${instanceId} AND node_id = ${event.sourceNodeId}`
      ], { discard: true })
    )
  }
}

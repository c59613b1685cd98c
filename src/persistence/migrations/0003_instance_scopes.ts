// The open variable scopes below an instance's root (embedded subprocesses), so /scopes/{scopeId} finds its instance.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE instance_scopes (
    tenant_id uuid NOT NULL,
    scope_id text PRIMARY KEY,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    parent_scope_id text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX instance_scopes_instance ON instance_scopes (instance_id)`
})

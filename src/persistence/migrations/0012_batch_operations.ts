// Batch operations: one row per batch (its type and parameters), one row per target with its outcome. The runner
// works off PENDING items, so a batch goes on after a restart; each item's command id is derived from the batch and
// the target, so an item applied twice changes nothing.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE batch_operations (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    type text NOT NULL,
    state text NOT NULL,
    parameters jsonb NOT NULL,
    total integer NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    completed_at timestamptz
  )`
  yield* sql`CREATE INDEX batch_operations_tenant_created ON batch_operations (tenant_id, created_at DESC, id DESC)`
  yield* sql`CREATE TABLE batch_operation_items (
    batch_id uuid NOT NULL REFERENCES batch_operations (id) ON DELETE CASCADE,
    position integer NOT NULL,
    target_id text NOT NULL,
    state text NOT NULL,
    message text,
    processed_at timestamptz,
    PRIMARY KEY (batch_id, position)
  )`
  yield* sql`CREATE INDEX batch_operation_items_pending ON batch_operation_items (batch_id, position) WHERE state = 'PENDING'`
})

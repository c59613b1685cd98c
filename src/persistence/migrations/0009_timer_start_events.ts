// Timer start events of the latest version of each process, with their due time; the timer poller starts one
// instance per row when it is due (held while the deployment is suspended) and then deletes the row.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE timer_start_events (
    tenant_id uuid NOT NULL,
    process_key text NOT NULL,
    deployment_id uuid NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    due_at timestamptz NOT NULL,
    PRIMARY KEY (deployment_id, node_id)
  )`
  yield* sql`CREATE INDEX timer_start_events_due ON timer_start_events (due_at)`
})

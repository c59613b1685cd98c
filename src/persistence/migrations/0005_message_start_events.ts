// The message start events of the latest version of each process key, so a published message finds the processes
// it starts with one indexed lookup instead of reading every deployment's graph.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE message_start_events (
    tenant_id uuid NOT NULL,
    process_key text NOT NULL,
    deployment_id uuid NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
    message_name text NOT NULL,
    node_id text NOT NULL,
    PRIMARY KEY (deployment_id, node_id)
  )`
  yield* sql`CREATE INDEX message_start_events_lookup ON message_start_events (tenant_id, message_name)`
})

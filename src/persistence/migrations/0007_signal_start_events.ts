// The signal start events of the latest version of each process key (like message_start_events).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE signal_start_events (
    tenant_id uuid NOT NULL,
    process_key text NOT NULL,
    deployment_id uuid NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
    signal_name text NOT NULL,
    node_id text NOT NULL,
    PRIMARY KEY (deployment_id, node_id)
  )`
  yield* sql`CREATE INDEX signal_start_events_lookup ON signal_start_events (tenant_id, signal_name)`
  yield* sql`CREATE INDEX event_subscriptions_signal ON event_subscriptions (tenant_id, kind, name) WHERE kind = 'SIGNAL'`
})

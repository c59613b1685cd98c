// Messages from one instance to another (start a called process, cancel a child, tell a parent its child ended),
// written in the same transaction as the state that causes them and delivered afterwards by the outbox relay, so a
// crash between "committed" and "delivered" loses nothing. Delivery is at least once; the commands are idempotent.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE instance_outbox (
    id bigserial PRIMARY KEY,
    tenant_id uuid NOT NULL,
    source_instance_id uuid NOT NULL,
    target_instance_id uuid NOT NULL,
    kind text NOT NULL,
    payload jsonb NOT NULL,
    actor text NOT NULL,
    created_at timestamptz NOT NULL
  )`
})

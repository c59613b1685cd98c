// Published messages kept for their time to live: BUFFERED until the first instance that starts waiting for them
// takes one (claimed in that instance's commit), or while CORRELATING a publish holds its messageId against duplicates.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE buffered_messages (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    message_id text,
    name text NOT NULL,
    correlation_key text NOT NULL,
    variables jsonb NOT NULL,
    state text NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE UNIQUE INDEX buffered_messages_message_id ON buffered_messages (tenant_id, message_id) WHERE message_id IS NOT NULL`
  yield* sql`CREATE INDEX buffered_messages_lookup ON buffered_messages (tenant_id, name, correlation_key, created_at) WHERE state = 'BUFFERED'`
})

// Connections: named, configured endpoints of a connector type (base URL, credentials) that connector tasks use.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE connections (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    name text NOT NULL,
    connector_type text NOT NULL,
    config jsonb NOT NULL,
    enabled boolean NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE UNIQUE INDEX connections_name_key ON connections (tenant_id, lower(name))`
  yield* sql`CREATE INDEX jobs_type_state ON jobs (type, state)`
})

// The subjects (users of this service or of the identity provider) that have called the API in a tenant: who can be
// named as a project member although no local user row exists for them (OIDC users).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE tenant_subjects (
    tenant_id uuid NOT NULL,
    subject text NOT NULL,
    first_seen_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, subject)
  )`
})

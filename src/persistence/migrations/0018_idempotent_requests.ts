// Requests that must take effect once however often they are sent: an Idempotency-Key on an HTTP write, or a
// message's messageId. The row is claimed before the work runs (IN_PROGRESS, with the moment that seeds the work's
// ids) and holds the first answer once it is done (DONE), until it expires. A message's row also keeps the
// publication itself, so an interrupted publish can be finished by a retry or by the recovery after a crash.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE idempotent_requests (
    tenant_id uuid NOT NULL,
    scope text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL,
    actor text NOT NULL,
    request jsonb,
    response jsonb,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, scope, key)
  )`
  yield* sql`CREATE INDEX idempotent_requests_in_progress ON idempotent_requests (scope, started_at) WHERE state = 'IN_PROGRESS'`
  yield* sql`CREATE INDEX idempotent_requests_expiry ON idempotent_requests (expires_at)`
})

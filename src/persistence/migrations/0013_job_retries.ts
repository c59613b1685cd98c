// Job retry policies and the record of failed attempts. A job's policy (backoff after a failure) is stored with it;
// each reported failure is one row, written in the same transaction as the failure itself.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN retry_policy jsonb`
  yield* sql`CREATE TABLE job_failures (
    tenant_id uuid NOT NULL,
    job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    attempt integer NOT NULL,
    worker text,
    error_message text NOT NULL,
    retries_left integer NOT NULL,
    retry_at timestamptz,
    failed_at timestamptz NOT NULL,
    PRIMARY KEY (job_id, attempt)
  )`
})

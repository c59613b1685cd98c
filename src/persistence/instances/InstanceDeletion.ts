// Deleting instances takes their rows with them, in one statement. Their history (instance_event_batches: one row per
// commit, migration 0032) and applied commands hold no foreign key to process_instances (migration 0030), so they are
// deleted here; the rest (jobs, user tasks, subscriptions, incidents, scopes, and what hangs off those) follows
// through the keys' ON DELETE CASCADE.
import type { SqlClient, Statement } from "effect/sql"

/** Deletes the instances `where` selects (a condition on process_instances) and all their rows. */
export const deleteInstances = (sql: SqlClient.SqlClient, where: Statement.Fragment) =>
  sql`WITH gone AS (DELETE FROM process_instances WHERE ${where} RETURNING id),
    events AS (DELETE FROM instance_event_batches WHERE instance_id IN (SELECT id FROM gone)),
    commands AS (DELETE FROM instance_commands WHERE instance_id IN (SELECT id FROM gone))
    SELECT count(*) AS count FROM gone`

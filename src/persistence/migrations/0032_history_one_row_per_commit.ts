// An instance's history is written as one row per commit (the events one command appended, in order) instead of one
// row per event: a correlation appends ~6 events, and their rows were a third to a half of PostgreSQL's CPU per
// command (docs/scaling.md, session 17). The view `instance_events` still shows one row per event, numbered as before
// (first_seq + the event's place in the commit), so every reader of the history reads it as it did.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE instance_event_batches (
    tenant_id uuid NOT NULL,
    instance_id uuid NOT NULL,
    first_seq bigint NOT NULL,
    events jsonb NOT NULL,
    actor text,
    occurred_at timestamptz NOT NULL,
    PRIMARY KEY (instance_id, first_seq)
  )`
  // The events written so far: each run of consecutive events with the same commit time and actor becomes one row
  // (a gaps-and-islands grouping, so the numbering read back is the numbering written).
  yield* sql`INSERT INTO instance_event_batches (tenant_id, instance_id, first_seq, events, actor, occurred_at)
    SELECT tenant_id, instance_id, min(event_seq),
      jsonb_agg(jsonb_build_object('type', type, 'node_id', node_id, 'token_id', token_id, 'payload', payload)
        ORDER BY event_seq),
      actor, occurred_at
    FROM (
      SELECT *, event_seq - row_number() OVER (PARTITION BY instance_id, occurred_at, actor ORDER BY event_seq) AS run
      FROM instance_events
    ) numbered
    GROUP BY tenant_id, instance_id, occurred_at, actor, run`
  yield* sql`DROP TABLE instance_events`
  yield* sql`CREATE VIEW instance_events AS
    SELECT b.tenant_id, b.instance_id, b.first_seq + e.place - 1 AS event_seq,
      e.event->>'type' AS type, e.event->>'node_id' AS node_id, e.event->>'token_id' AS token_id,
      e.event->'payload' AS payload, b.actor, b.occurred_at
    FROM instance_event_batches b CROSS JOIN LATERAL jsonb_array_elements(b.events) WITH ORDINALITY AS e(event, place)`
})

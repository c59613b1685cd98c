// Whom a published message reaches: the subscriptions waiting for it (each instance's oldest one) and the message start
// events of its name in the tenant's ACTIVE deployments. The lookups of publishes that arrive while earlier ones are
// under way go to the database together, as one statement (makeGroupCommit's batching, used here for reads): under
// load a publish costs a fraction of a statement instead of two. A batched read sees what it would see alone: each
// publish asks only after its own earlier writes finished, and the statement reads what is committed when it starts.
import { Clock, Context, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../../config.ts"
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { makeGroupCommit } from "../GroupCommit.ts"
import { pgArray, toJson } from "../SqlValues.ts"
import {
  type InstanceRow,
  InstanceSnapshots,
  LOOKUP_ROWS_PER_MESSAGE,
  MAX_SNAPSHOT_STATE_BYTES
} from "./InstanceSnapshots.ts"

export interface WaitingSubscriptionRow {
  readonly instance_id: ProcessInstanceId
  readonly id: string
}

export interface EventStartRow {
  readonly deployment_id: string
  readonly node_id: string
}

export interface MessageTargetRows {
  readonly waiting: ReadonlyArray<WaitingSubscriptionRow>
  readonly starts: ReadonlyArray<EventStartRow>
}

export interface MessageTargetsShape {
  readonly of: (tenantId: string, messageName: string, correlationKey: string) => Effect.Effect<MessageTargetRows>
}

export interface Asked {
  readonly i: number
  readonly tenant_id: string
  readonly name: string
  readonly correlation_key: string
}

interface TargetRow {
  readonly i: number
  readonly instance_id: ProcessInstanceId | null
  readonly id: string | null
  readonly deployment_id: string | null
  readonly node_id: string | null
  /** The waiting instance's row (its state as text), when it last changed before the cutoff; else null. */
  readonly p_id: string | null
  readonly p_tenant_id: string
  readonly p_deployment_id: string
  readonly process_key: string
  readonly version: number
  readonly state: InstanceRow["state"]
  readonly parent_instance_id: string | null
  readonly engine_state: string
  readonly last_event_seq: unknown
}

/**
 * The waiting subscriptions of each asked row (LATERAL: by the (tenant, kind, name, key) index) and the start events of
 * the asked names (a join the ANY arrays keep on their index), as one statement.
 *
 * `OFFSET 0` keeps the subscription lookup a subquery of its own, planned on the message index alone. Without it the
 * planner may read the subscriptions in primary-key order to serve the DISTINCT ON's ordering, filtering every row:
 * it chose that whenever the statistics said the table was nearly empty (the last ANALYZE saw the subscriptions all
 * consumed) while thousands had been added since — ~1 ms per asked key over 8,000 rows, 35–80 ms per lookup batch,
 * and publishes 300–800 ms late for the seconds until the next ANALYZE (npm run bench, half-rate phase, session 18).
 *
 * With each waiting subscription comes its instance's row when the instance last changed before `idleSince` (so it is
 * probably no longer in memory: InstanceSnapshots), its state as text, parsed only if the command takes it — for the
 * first LOOKUP_ROWS_PER_MESSAGE instances of a message, and states of at most MAX_SNAPSHOT_STATE_BYTES as stored: the
 * others are loaded as before, so a message to many instances, or to large ones, holds no more in memory than it did.
 * The row is read by its primary key per subscription: `LIMIT 1` keeps that subquery from being flattened into a
 * join the planner may run as a hash join over every instance row — it did on PGlite, whose tables are never
 * analyzed (a sequential scan per lookup batch, the publishes' CPU growing with the table: docs/scaling.md, session 28).
 */
export const targetsStatement = (sql: SqlClient.SqlClient, asked: ReadonlyArray<Asked>, idleSince: string) =>
  sql<TargetRow>`WITH asked AS (
      SELECT * FROM jsonb_to_recordset(${toJson(asked)}::jsonb)
        AS a(i int, tenant_id uuid, name text, correlation_key text))
    SELECT a.i, w.instance_id, w.id, NULL::uuid AS deployment_id, NULL::text AS node_id, p.id AS p_id,
      p.tenant_id AS p_tenant_id, p.deployment_id AS p_deployment_id, p.process_key, p.version, p.state,
      p.parent_instance_id, p.engine_state, p.last_event_seq
    FROM asked a CROSS JOIN LATERAL (
      SELECT d.instance_id, d.id, row_number() OVER () AS n FROM (
        SELECT DISTINCT ON (c.instance_id) c.instance_id, c.id FROM (
          SELECT s.instance_id, s.id, s.created_at FROM event_subscriptions s
          WHERE s.tenant_id = a.tenant_id AND s.kind = 'MESSAGE' AND s.name = a.name
            AND s.correlation_key = a.correlation_key
          OFFSET 0) c
        ORDER BY c.instance_id, c.created_at, c.id) d) w
    LEFT JOIN LATERAL (
      SELECT p.id, p.tenant_id, p.deployment_id, p.process_key, p.version, p.state, p.parent_instance_id,
        p.engine_state::text AS engine_state, p.last_event_seq
      FROM process_instances p
      WHERE p.id = w.instance_id AND w.n <= ${LOOKUP_ROWS_PER_MESSAGE}
        AND p.updated_at < ${idleSince}::timestamptz AND pg_column_size(p.engine_state) <= ${MAX_SNAPSHOT_STATE_BYTES}
      LIMIT 1) p ON true
    UNION ALL
    SELECT a.i, NULL, NULL, m.deployment_id, m.node_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM asked a
    JOIN message_start_events m ON m.tenant_id = a.tenant_id AND m.message_name = a.name
    JOIN deployments d ON d.id = m.deployment_id
    WHERE d.state = 'ACTIVE'
      AND m.tenant_id = ANY(${pgArray([...new Set(asked.map((a) => a.tenant_id))])}::uuid[])
      AND m.message_name = ANY(${pgArray([...new Set(asked.map((a) => a.name))])}::text[])
    ORDER BY 1, 2`

const instanceRowOf = (row: TargetRow): InstanceRow => ({
  id: row.p_id!,
  tenant_id: row.p_tenant_id,
  deployment_id: row.p_deployment_id,
  process_key: row.process_key,
  version: row.version,
  state: row.state,
  parent_instance_id: row.parent_instance_id,
  engine_state: row.engine_state,
  last_event_seq: row.last_event_seq
})

export class MessageTargets extends Context.Service<MessageTargets, MessageTargetsShape>()("flowcore/MessageTargets") {
  static readonly layer = Layer.effect(
    MessageTargets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const snapshots = yield* InstanceSnapshots
      // An instance whose last change is older than this has probably left memory (ENTITY_IDLE_SECONDS).
      const idleMillis = config.entityIdleSeconds * 1000
      const lookups = makeGroupCommit<Omit<Asked, "i">, MessageTargetRows, never>({
        maxBatch: 256,
        maxInFlight: 4,
        flush: Effect.fnUntraced(function*(batch) {
          const asked: ReadonlyArray<Asked> = batch.map((item, i) => ({ ...item, i }))
          const now = yield* Clock.currentTimeMillis
          const rows = yield* targetsStatement(sql, asked, new Date(now - idleMillis).toISOString()).pipe(Effect.orDie)
          const answers = asked.map(() => ({
            waiting: [] as Array<WaitingSubscriptionRow>,
            starts: [] as Array<EventStartRow>
          }))
          for (const row of rows) {
            const answer = answers[row.i]!
            if (row.instance_id !== null && row.id !== null) {
              answer.waiting.push({ instance_id: row.instance_id, id: row.id })
              // Kept for the instance's load here; not taken (the instance is in memory after all, or on another
              // node), it is dropped unused (InstanceSnapshots).
              if (row.p_id !== null) snapshots.offer(instanceRowOf(row))
            } else if (row.deployment_id !== null && row.node_id !== null) {
              answer.starts.push({ deployment_id: row.deployment_id, node_id: row.node_id })
            }
          }
          return answers.map((answer) => Exit.succeed(answer))
        })
      })
      return {
        of: (tenantId, messageName, correlationKey) =>
          lookups.submit({ tenant_id: tenantId, name: messageName, correlation_key: correlationKey })
      }
    })
  )
}

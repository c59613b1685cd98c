// The event subscriptions projection: what messages, signals and timers are awaited, and by whom (waiting tokens and
// armed boundary / event-gateway / event-subprocess events). A message subscription takes a buffered message nobody
// awaited when it was published — the first within its time to live — claimed in this same transaction.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { RowsChange, RowsClaim } from "../BatchWrites.ts"
import { fromJson, pgArray, toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

type Kind = "MESSAGE" | "SIGNAL" | "TIMER"

interface MessageWait {
  readonly tenant_id: string
  readonly instance_id: string
  readonly subscription_id: string
  readonly name: string | null
  readonly correlation_key: string | null
  readonly actor: string
  readonly at: string
}

/** The (tenant, name, key) pairs of the waits that have a buffered message to take. */
const bufferedFor = (sql: SqlClient.SqlClient, waits: ReadonlyArray<MessageWait>) =>
  sql`SELECT DISTINCT b.tenant_id, b.name, b.correlation_key FROM buffered_messages b
    JOIN jsonb_to_recordset(${toJson(waits)}::jsonb)
      AS v(tenant_id uuid, name text, correlation_key text, at timestamptz)
      ON b.tenant_id = v.tenant_id AND b.name = v.name AND b.correlation_key = v.correlation_key
    WHERE b.state = 'BUFFERED' AND b.expires_at > v.at
      AND b.tenant_id = ANY(${pgArray(waits.map((wait) => wait.tenant_id))}::uuid[])
      AND b.name = ANY(${pgArray(waits.map((wait) => wait.name ?? ""))}::text[])`

/**
 * New message subscriptions take buffered messages. Usually there are none: the batch's one statement checks so
 * (`nothingToClaim`). Where there are, the batch is written as a transaction, and this runs in it: one query finds
 * which of the batch's (name, key) pairs have any, and only those claim theirs, one by one, in the order they subscribed.
 */
const claimBufferedMessages: RowsClaim<MessageWait> = {
  name: "claim buffered messages",
  phase: "claim",
  key: (row) => `${row.instance_id}/${row.subscription_id}`,
  nothingToClaim: (sql, waits) => sql`NOT EXISTS (SELECT 1 FROM (${bufferedFor(sql, waits)}) pending)`,
  run: Effect.fnUntraced(function*(sql, waits, outboxWritten) {
    const pending = yield* sql<{ tenant_id: string; name: string; correlation_key: string }>`${bufferedFor(sql, waits)}`
    if (pending.length === 0) return
    const keyOf = (tenantId: string, name: string | null, key: string | null) => JSON.stringify([tenantId, name, key])
    const buffered = new Set(pending.map((row) => keyOf(row.tenant_id, row.name, row.correlation_key)))
    for (const wait of waits) {
      if (!buffered.has(keyOf(wait.tenant_id, wait.name, wait.correlation_key))) continue
      const claimed = yield* sql<{ id: string; variables: unknown }>`DELETE FROM buffered_messages WHERE id = (
            SELECT id FROM buffered_messages
            WHERE tenant_id = ${wait.tenant_id} AND name = ${wait.name} AND correlation_key = ${wait.correlation_key}
              AND state = 'BUFFERED' AND expires_at > ${wait.at}
            ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING id, variables`
      const message = claimed[0]
      if (message === undefined) continue
      yield* sql`INSERT INTO instance_outbox ${
        sql.insert({
          tenant_id: wait.tenant_id,
          source_instance_id: wait.instance_id,
          target_instance_id: wait.instance_id,
          kind: "CORRELATE_MESSAGE",
          payload: toJson({
            subscriptionId: wait.subscription_id,
            messageKey: message.id,
            variables: fromJson(message.variables)
          }),
          actor: wait.actor,
          created_at: wait.at
        })
      }`
      outboxWritten(wait.instance_id)
    }
  })
}

interface ClosedSubscription {
  readonly instance_id: string
  readonly id: string
}

const closeSubscriptions: RowsChange<ClosedSubscription> = {
  name: "close subscriptions",
  phase: "delete",
  table: "event_subscriptions",
  key: (row) => `${row.instance_id}/${row.id}`,
  insertedKey: (row) => `${row["instance_id"]}/${row["id"]}`,
  statement: (sql, rows) =>
    sql`DELETE FROM event_subscriptions AS s USING jsonb_to_recordset(${
      toJson(rows)
    }::jsonb) AS v(instance_id uuid, id text)
      WHERE s.instance_id = v.instance_id AND s.id = v.id
        AND s.instance_id = ANY(${pgArray(rows.map((row) => row.instance_id))}::uuid[])`
}

const opened = (
  ctx: ProjectionContext,
  subscriptionId: string,
  nodeId: string,
  elementInstanceId: string,
  kind: Kind,
  name: string | null,
  correlationKey: string | null,
  dueAt: string | null
) => {
  const { writes, tenantId, instanceId, now } = ctx
  writes.insert("event_subscriptions", {
    tenant_id: tenantId,
    id: subscriptionId,
    instance_id: instanceId,
    node_id: nodeId,
    element_instance_id: elementInstanceId,
    kind,
    name,
    correlation_key: correlationKey,
    due_at: dueAt,
    created_at: now
  })
  if (kind !== "MESSAGE") return
  writes.rows(claimBufferedMessages, {
    tenant_id: tenantId,
    instance_id: instanceId,
    subscription_id: subscriptionId,
    name,
    correlation_key: correlationKey,
    actor: ctx.actor,
    at: now
  })
}

const closed = ({ writes, instanceId }: ProjectionContext, event: { readonly subscriptionId: string }) =>
  writes.rows(closeSubscriptions, { instance_id: instanceId, id: event.subscriptionId })

export const subscriptionProjections: Projections = {
  MessageSubscriptionOpened: (ctx, event) =>
    opened(
      ctx,
      event.subscriptionId,
      event.nodeId,
      event.tokenId,
      "MESSAGE",
      event.messageName,
      event.correlationKey,
      null
    ),
  SignalSubscriptionOpened: (ctx, event) =>
    opened(ctx, event.subscriptionId, event.nodeId, event.tokenId, "SIGNAL", event.signalName, null, null),
  TimerScheduled: (ctx, event) =>
    opened(ctx, event.subscriptionId, event.nodeId, event.tokenId, "TIMER", null, null, event.dueAt),
  // A condition is checked by the instance itself whenever its variables change: nothing outside waits on it.
  BoundaryOpened: (ctx, event) =>
    event.kind === "conditional"
      ? undefined
      : opened(
        ctx,
        event.subscriptionId,
        event.nodeId,
        event.hostTokenId,
        event.kind === "message" ? "MESSAGE" : event.kind === "signal" ? "SIGNAL" : "TIMER",
        event.name ?? null,
        event.correlationKey ?? null,
        event.dueAt ?? null
      ),
  MessageCorrelated: closed,
  MessageSubscriptionClosed: closed,
  SignalTriggered: closed,
  SignalSubscriptionClosed: closed,
  BoundaryClosed: closed,
  TimerFired: closed,
  TimerCanceled: closed
}

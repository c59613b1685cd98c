// The event subscriptions projection: what messages, signals and timers are awaited, and by whom (waiting tokens and
// armed boundary / event-gateway / event-subprocess events). A message subscription takes a buffered message nobody
// awaited when it was published — the first within its time to live — claimed in this same transaction.
import { Effect } from "effect"
import { fromJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

type Kind = "MESSAGE" | "SIGNAL" | "TIMER"

const opened = (
  ctx: ProjectionContext,
  subscriptionId: string,
  nodeId: string,
  elementInstanceId: string,
  kind: Kind,
  name: string | null,
  correlationKey: string | null,
  dueAt: string | null
) =>
  Effect.gen(function*() {
    const { sql, tenantId, instanceId, now } = ctx
    yield* sql`INSERT INTO event_subscriptions (tenant_id, id, instance_id, node_id, element_instance_id, kind, name,
        correlation_key, due_at, created_at)
      VALUES (${tenantId}, ${subscriptionId}, ${instanceId}, ${nodeId}, ${elementInstanceId}, ${kind}, ${name}, ${correlationKey}, ${dueAt}, ${now})`
    if (kind !== "MESSAGE") return
    const claimed = yield* sql<{ id: string; variables: unknown }>`DELETE FROM buffered_messages WHERE id = (
        SELECT id FROM buffered_messages
        WHERE tenant_id = ${tenantId} AND name = ${name} AND correlation_key = ${correlationKey}
          AND state = 'BUFFERED' AND expires_at > ${now}
        ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, variables`
    const message = claimed[0]
    if (message !== undefined) {
      yield* ctx.outbox(instanceId, {
        _tag: "CORRELATE_MESSAGE",
        subscriptionId,
        messageKey: message.id,
        variables: fromJson(message.variables)
      })
    }
  })

const closed = ({ sql, instanceId }: ProjectionContext, event: { readonly subscriptionId: string }) =>
  sql`DELETE FROM event_subscriptions WHERE instance_id = ${instanceId} AND id = ${event.subscriptionId}`.pipe(
    Effect.asVoid
  )

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
      ? Effect.void
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

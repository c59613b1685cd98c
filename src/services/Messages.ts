// Message correlation: a published message resumes every waiting instance whose subscription matches (tenant, name,
// correlation key) — one subscription per instance — and starts an instance of every active latest-version process
// whose message start event has that name. Matching nothing is a success with zero counts (SERVICE.md).
import { Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { isUniqueViolation, toJson } from "../persistence/SqlValues.ts"
import { conflict, type Conflict, validationError, type ValidationError } from "../schema/ApiErrors.ts"
import { nowMillis } from "./Time.ts"
import { newId } from "./Ids.ts"
import { ProcessInstances } from "./ProcessInstances.ts"

export interface Publication {
  readonly messageName: string
  readonly correlationKey?: string | number | undefined
  readonly variables?: Readonly<Record<string, unknown>> | undefined
  readonly timeToLive?: number | string | undefined
  readonly messageId?: string | undefined
}

export interface CorrelationResult {
  readonly correlatedCount: number
  readonly startedCount: number
  readonly instanceIds: ReadonlyArray<string>
  readonly buffered: boolean
}

/** Milliseconds, or an ISO 8601 duration (PnDTnHnMnS) as Camunda 8 also accepts. */
const ttlMillis = (value: number | string | undefined): Effect.Effect<number, ValidationError> => {
  if (value === undefined) return Effect.succeed(0)
  if (typeof value === "number") return Effect.succeed(value)
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value)
  if (match === null || value === "P" || value.endsWith("T")) {
    return Effect.fail(validationError("timeToLive", `"${value}" is neither milliseconds nor an ISO 8601 duration like PT1H`, "INVALID_DURATION"))
  }
  const [, days, hours, minutes, seconds] = match
  return Effect.succeed(Duration.toMillis(Duration.sum(
    Duration.sum(Duration.days(Number(days ?? 0)), Duration.hours(Number(hours ?? 0))),
    Duration.sum(Duration.minutes(Number(minutes ?? 0)), Duration.seconds(Number(seconds ?? 0)))
  )))
}

export interface MessagesShape {
  readonly publish: (principal: Principal, message: Publication) => Effect.Effect<CorrelationResult, Conflict | ValidationError>
}

export class Messages extends Context.Service<Messages, MessagesShape>()("flowcore/Messages") {
  static readonly layer = Layer.effect(
    Messages,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      return {
        publish: (principal, message) =>
          Effect.gen(function*() {
            const key = message.correlationKey === undefined ? "" : String(message.correlationKey)
            const variables = message.variables ?? {}
            const messageKey = yield* newId
            const ttl = yield* ttlMillis(message.timeToLive)
            const now = yield* nowMillis
            const nowText = new Date(now).toISOString()
            // The row holds the messageId against duplicates while correlating, and is the buffer afterwards.
            const held = message.messageId !== undefined || ttl > 0
            if (held) {
              if (message.messageId !== undefined) {
                yield* sql`DELETE FROM buffered_messages WHERE tenant_id = ${principal.tenantId} AND message_id = ${message.messageId}
                  AND state = 'BUFFERED' AND expires_at <= ${nowText}`.pipe(Effect.orDie)
              }
              yield* sql`INSERT INTO buffered_messages (tenant_id, id, message_id, name, correlation_key, variables, state, expires_at, created_at)
                VALUES (${principal.tenantId}, ${messageKey}, ${message.messageId ?? null}, ${message.messageName}, ${key},
                  ${toJson(variables)}::jsonb, 'CORRELATING', ${new Date(now + ttl).toISOString()}, ${nowText})`.pipe(
                Effect.catchIf(isUniqueViolation, () =>
                  Effect.fail(conflict(`message ${message.messageId} was already published and is still buffered or being correlated`, [
                    { field: "messageId", message: "already published", code: "DUPLICATE" }
                  ]))),
                Effect.catchTag("SqlError", Effect.die)
              )
            }
            // Indexed by (tenant_id, kind, name, correlation_key); the oldest subscription of each instance wins.
            const waiting = yield* sql<{ instance_id: string; id: string }>`SELECT DISTINCT ON (instance_id) instance_id, id
              FROM event_subscriptions
              WHERE tenant_id = ${principal.tenantId} AND kind = 'MESSAGE' AND name = ${message.messageName} AND correlation_key = ${key}
              ORDER BY instance_id, created_at, id`.pipe(Effect.orDie)
            const correlated = yield* Effect.forEach(waiting, (subscription) =>
              Effect.map(
                instances.deliver(principal, subscription.instance_id, {
                  type: "CorrelateMessage",
                  subscriptionId: subscription.id,
                  variables
                }, `message:${messageKey}:${subscription.id}`),
                (delivered) => (delivered ? [subscription.instance_id] : [])
              ), { concurrency: 16 })
            const starts = yield* sql<{ deployment_id: string; node_id: string }>`SELECT m.deployment_id, m.node_id
              FROM message_start_events m JOIN deployments d ON d.id = m.deployment_id
              WHERE m.tenant_id = ${principal.tenantId} AND m.message_name = ${message.messageName} AND d.state = 'ACTIVE'`.pipe(Effect.orDie)
            const started = yield* Effect.forEach(starts, (start) =>
              instances.start(principal, start.deployment_id, variables, start.node_id).pipe(
                Effect.map((instance) => [instance.id]),
                Effect.catch(() => Effect.succeed([] as Array<string>))
              ), { concurrency: 16 })
            const resumedIds = correlated.flat()
            const startedIds = started.flat()
            // Kept only if nothing awaited it: the first instance that starts waiting within the TTL takes it.
            const buffered = held && ttl > 0 && resumedIds.length === 0 && startedIds.length === 0
            if (held) {
              yield* (buffered
                ? sql`UPDATE buffered_messages SET state = 'BUFFERED' WHERE id = ${messageKey}`
                : sql`DELETE FROM buffered_messages WHERE id = ${messageKey}`).pipe(Effect.orDie)
            }
            return { correlatedCount: resumedIds.length, startedCount: startedIds.length, instanceIds: [...resumedIds, ...startedIds], buffered }
          })
      }
    })
  )
}

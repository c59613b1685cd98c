// Message correlation: a published message resumes every waiting instance whose subscription matches (tenant, name,
// correlation key) — one subscription per instance — and starts an instance of every active latest-version process
// whose message start event has that name. Matching nothing is a success with zero counts (SERVICE.md).
// A messageId makes the publish happen once: a duplicate within the retention (IDEMPOTENCY_RETENTION_HOURS, or the
// time to live when longer) is refused with 409, whether the first publish finished, buffered the message, or was
// interrupted — an interrupted one is finished by the duplicate, or by the recovery loop after MESSAGE_RECOVERY_AFTER,
// with the same ids, so nothing is correlated twice (see IdempotentRequests).
import { Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../../auth/Principal.ts"
import { runClusterLoop } from "../../cluster/ClusterLoop.ts"
import { MessageTargets } from "../../persistence/instances/MessageTargets.ts"
import { toJson } from "../../persistence/SqlValues.ts"
import { type Conflict, conflict, type ValidationError, validationError } from "../../schema/ApiErrors.ts"
import { MAX_MESSAGE_TTL_MILLIS } from "../../schema/Messages.ts"
import { bothConcurrently } from "../Concurrently.ts"
import { fingerprintOf, type IdempotentClaim, IdempotentRequests } from "../IdempotentRequests.ts"
import { newId } from "../Ids.ts"
import { ProcessInstances } from "../instances/ProcessInstances.ts"
import { nowMillis } from "../Time.ts"
import { startAt } from "./EventStarts.ts"
import { deliverToWaiting } from "./WaitingSubscriptions.ts"

export interface Publication {
  readonly messageName: string
  readonly correlationKey?: string | number | undefined
  readonly variables?: Readonly<Record<string, unknown>> | undefined
  readonly timeToLive?: number | string | undefined
  readonly messageId?: string | undefined
}

export interface CorrelationResult {
  readonly correlatedCount: number
  /** Reached suspended instances: held there, applied when the instance is resumed. */
  readonly heldCount: number
  readonly startedCount: number
  readonly instanceIds: ReadonlyArray<string>
  readonly buffered: boolean
}

/**
 * Milliseconds, or an ISO 8601 duration (PnDTnHnMnS) as Camunda 8 also accepts; at most MAX_MESSAGE_TTL_MILLIS (the
 * schema bounds the milliseconds; a duration is checked here), so the expiry computed from it is a date.
 */
const ttlMillis = (value: number | string | undefined): Effect.Effect<number, ValidationError> => {
  if (value === undefined) return Effect.succeed(0)
  const millis = typeof value === "number" ? value : durationMillis(value)
  if (millis === undefined) {
    return Effect.fail(
      validationError(
        "timeToLive",
        `"${value}" is neither milliseconds nor an ISO 8601 duration like PT1H`,
        "INVALID_DURATION"
      )
    )
  }
  return Number.isFinite(millis) && millis <= MAX_MESSAGE_TTL_MILLIS ? Effect.succeed(millis) : Effect.fail(
    validationError("timeToLive", `${value} is longer than ten years (${MAX_MESSAGE_TTL_MILLIS} ms)`, "TOO_LONG")
  )
}

const durationMillis = (value: string): number | undefined => {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value)
  if (match === null || value === "P" || value.endsWith("T")) return undefined
  const [, days, hours, minutes, seconds] = match
  return Duration.toMillis(Duration.sum(
    Duration.sum(Duration.days(Number(days ?? 0)), Duration.hours(Number(hours ?? 0))),
    Duration.sum(Duration.minutes(Number(minutes ?? 0)), Duration.seconds(Number(seconds ?? 0)))
  ))
}

/** A publish claimed but unanswered this long is taken to be interrupted, and finished by the recovery loop. */
export const MESSAGE_RECOVERY_AFTER_MILLIS = 30_000

export interface MessagesShape {
  readonly publish: (
    principal: Principal,
    message: Publication
  ) => Effect.Effect<CorrelationResult, Conflict | ValidationError>
  /** Finishes publishes interrupted by a crash or a cut-off client, and forgets expired ids (runs every few seconds). */
  readonly recover: Effect.Effect<number>
}

export class Messages extends Context.Service<Messages, MessagesShape>()("flowcore/Messages") {
  static readonly layer = Layer.effect(
    Messages,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      const idempotent = yield* IdempotentRequests
      const targets = yield* MessageTargets

      // The publish itself. Its ids (the message key, and from it every command id) are drawn with newId, so a rerun
      // under the same IdSeed repeats nothing. It runs to its end even if the client goes away.
      const correlate = Effect.fnUntraced(function*(principal: Principal, message: Publication, ttl: number) {
        const key = message.correlationKey === undefined ? "" : String(message.correlationKey)
        const variables = message.variables ?? {}
        const messageKey = yield* newId
        const now = yield* nowMillis
        // Delivered to who waits for it and started where it starts a process, at the same time: one lookup finds both
        // (MessageTargets, shared with concurrent publishes); every command id and instance id derives from the
        // message key. Each waiting instance's oldest matching subscription wins.
        const { starts, waiting } = yield* targets.of(principal.tenantId, message.messageName, key)
        const [correlated, startedIds] = yield* bothConcurrently(
          deliverToWaiting(instances, principal, waiting, (subscriptionId) => ({
            type: "CorrelateMessage",
            subscriptionId,
            variables
          }), `message:${messageKey}`),
          startAt(instances, principal, "message-start", starts, variables, messageKey),
          { first: waiting.length === 0, second: starts.length === 0 }
        )
        // A suspended instance holds the message and applies it when resumed: reached, but not (yet) correlated.
        const resumedIds = correlated.filter((c) => c.delivery === "applied").map((c) => c.instanceId)
        const heldIds = correlated.filter((c) => c.delivery === "held").map((c) => c.instanceId)
        // Kept only if nothing awaited it: the first instance that starts waiting within the TTL takes it.
        const buffered = ttl > 0 && resumedIds.length === 0 && heldIds.length === 0 && startedIds.length === 0
        if (buffered) {
          yield* sql`INSERT INTO buffered_messages (tenant_id, id, message_id, name, correlation_key, variables, state, expires_at, created_at)
              VALUES (${principal.tenantId}, ${messageKey}, NULL, ${message.messageName}, ${key}, ${
            toJson(variables)
          }::jsonb, 'BUFFERED',
                ${new Date(now + ttl).toISOString()}, ${new Date(now).toISOString()})
              ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
        }
        return {
          correlatedCount: resumedIds.length,
          heldCount: heldIds.length,
          startedCount: startedIds.length,
          instanceIds: [...resumedIds, ...heldIds, ...startedIds],
          buffered
        }
      }, Effect.uninterruptible)

      const claimOf = (
        principal: Principal,
        message: Publication & { readonly messageId: string },
        ttl: number
      ): IdempotentClaim => ({
        tenantId: principal.tenantId,
        scope: "message",
        key: message.messageId,
        fingerprint: fingerprintOf("message", message),
        actor: principal.sub,
        request: message,
        retainMillis: ttl
      })

      const publish: MessagesShape["publish"] = Effect.fnUntraced(function*(principal, message) {
        const ttl = yield* ttlMillis(message.timeToLive)
        const messageId = message.messageId
        if (messageId === undefined) return yield* correlate(principal, message, ttl)
        return yield* idempotent.run(
          claimOf(principal, { ...message, messageId }, ttl),
          correlate(principal, message, ttl),
          () =>
            Effect.fail(conflict(`message ${messageId} was already published`, [
              { field: "messageId", message: "already published", code: "DUPLICATE" }
            ]))
        )
      })

      const recover = Effect.gen(function*() {
        const interrupted = yield* idempotent.interrupted("message", MESSAGE_RECOVERY_AFTER_MILLIS, 100)
        yield* Effect.forEach(interrupted, (row) => {
          const message = row.request as Publication & { readonly messageId: string }
          const principal: Principal = { sub: row.actor, tenantId: row.tenantId, roles: [], source: "local" }
          return Effect.flatMap(
            ttlMillis(message.timeToLive),
            (ttl) =>
              idempotent.run(
                claimOf(principal, message, ttl),
                correlate(principal, message, ttl),
                (answered) => Effect.succeed(answered.response as CorrelationResult)
              )
          ).pipe(Effect.catchCause((cause) => Effect.logWarning(`message ${row.key} not recovered yet`, cause)))
        }, { concurrency: 4, discard: true })
        const purged = yield* idempotent.purgeExpired
        return interrupted.length + purged
      }).pipe(Effect.catchCause((cause) => Effect.as(Effect.logWarning("message recovery failed; retried", cause), 0)))

      yield* runClusterLoop("message-recovery", "5 seconds", recover)
      return { publish, recover }
    })
  )
}

// Work that takes effect once however often it is requested: an HTTP write with an Idempotency-Key, a message with a
// messageId. The key is claimed in a row before the work runs; the work's ids are derived from the key (see IdSeed),
// so the entity commands it sends carry the same ids on every attempt and the entities apply each once. Hence:
//  - answered before: the first answer is returned (or, for a messageId, the duplicate is refused);
//  - claimed but unanswered (a crash, a cut-off client, or a duplicate racing the first): the work runs again with the
//    same ids, which finishes what was interrupted and repeats nothing; the first answer stored wins.
// Rows expire after the retention (IDEMPOTENCY_RETENTION_HOURS, or a message's time to live when longer).
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { AppConfig } from "../config.ts"
import { fromJson, toJson } from "../persistence/SqlValues.ts"
import { withIdsFrom } from "./Ids.ts"

export interface IdempotentClaim {
  readonly tenantId: string
  /** What the key is unique within: "http" for Idempotency-Key headers, "message" for messageIds. */
  readonly scope: "http" | "message"
  readonly key: string
  /** Identifies the request; the same key with another fingerprint is a different request. */
  readonly fingerprint: string
  readonly actor: string
  /** Kept for recovery (a message's publication). */
  readonly request?: unknown
  /** At least this long; the configured retention when shorter. */
  readonly retainMillis?: number
}

export type ClaimOutcome =
  | { readonly _tag: "Run"; readonly epochMillis: number }
  | { readonly _tag: "Answered"; readonly fingerprint: string; readonly response: unknown }

export interface InterruptedRequest {
  readonly tenantId: string
  readonly key: string
  readonly actor: string
  readonly request: unknown
}

export interface IdempotentRequestsShape {
  readonly claim: (claim: IdempotentClaim) => Effect.Effect<ClaimOutcome>
  /** Stores the answer unless one was stored first; returns the answer that stands. */
  readonly finish: (claim: IdempotentClaim, response: unknown) => Effect.Effect<unknown>
  /** Claims, then runs `work` with ids derived from the key, or answers with what was stored. */
  readonly run: <A, E, R>(
    claim: IdempotentClaim,
    work: Effect.Effect<A, E, R>,
    onAnswered: (answered: Extract<ClaimOutcome, { _tag: "Answered" }>) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E, R>
  /** Claimed rows of a scope left unanswered since before `olderThanMillis` ago (interrupted work to finish). */
  readonly interrupted: (
    scope: IdempotentClaim["scope"],
    olderThanMillis: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<InterruptedRequest>>
  /** Forgets expired rows; returns how many. */
  readonly purgeExpired: Effect.Effect<number>
}

/** JSON with object keys in sorted order: the same value always gives the same text (jsonb reorders keys). */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort((
      [a],
      [b]
    ) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`
  }
  return JSON.stringify(value ?? null)
}

/** A stable fingerprint of a request: its route and its JSON body, whatever the order of its keys. */
export const fingerprintOf = (route: string, body: unknown): string =>
  createHash("sha256").update(route).update("\n").update(canonicalJson(body)).digest("hex")

interface Row {
  readonly fingerprint: string
  readonly state: string
  readonly response: unknown
  readonly started_at: Date | string
}

export class IdempotentRequests
  extends Context.Service<IdempotentRequests, IdempotentRequestsShape>()("flowcore/IdempotentRequests")
{
  static readonly layer = Layer.effect(
    IdempotentRequests,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const retentionMillis = config.idempotencyRetentionHours * 3_600_000

      const claim: IdempotentRequestsShape["claim"] = Effect.fnUntraced(function*(c) {
        const now = yield* Clock.currentTimeMillis
        const nowText = new Date(now).toISOString()
        const expires = new Date(now + Math.max(retentionMillis, c.retainMillis ?? 0)).toISOString()
        // A new key, or an expired one taken over: ours to run from scratch.
        const inserted =
          yield* sql`INSERT INTO idempotent_requests (tenant_id, scope, key, fingerprint, state, actor, request,
              response, started_at, finished_at, expires_at)
            VALUES (${c.tenantId}, ${c.scope}, ${c.key}, ${c.fingerprint}, 'IN_PROGRESS', ${c.actor}, ${
            toJson(c.request ?? null)
          }::jsonb,
              NULL, ${nowText}, NULL, ${expires})
            ON CONFLICT (tenant_id, scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'IN_PROGRESS',
              actor = excluded.actor, request = excluded.request, response = NULL, started_at = excluded.started_at,
              finished_at = NULL, expires_at = excluded.expires_at
            WHERE idempotent_requests.expires_at <= ${nowText}
            RETURNING key`
        if (inserted.length > 0) return { _tag: "Run", epochMillis: now } as const
        const [row] = yield* sql<Row>`SELECT fingerprint, state, response, started_at FROM idempotent_requests
            WHERE tenant_id = ${c.tenantId} AND scope = ${c.scope} AND key = ${c.key}`
        if (row === undefined) return yield* claim(c) // expired and deleted meanwhile: claim afresh
        if (row.state === "DONE") {
          return { _tag: "Answered", fingerprint: row.fingerprint, response: fromJson(row.response) } as const
        }
        if (row.fingerprint !== c.fingerprint) {
          return { _tag: "Answered", fingerprint: row.fingerprint, response: undefined } as const
        }
        return { _tag: "Run", epochMillis: new Date(row.started_at).getTime() } as const
      }, Effect.orDie)

      const finish: IdempotentRequestsShape["finish"] = Effect.fnUntraced(function*(c, response) {
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const stored = yield* sql`UPDATE idempotent_requests SET state = 'DONE', response = ${
          toJson(response)
        }::jsonb, finished_at = ${now}
            WHERE tenant_id = ${c.tenantId} AND scope = ${c.scope} AND key = ${c.key} AND state = 'IN_PROGRESS' RETURNING key`
        if (stored.length > 0) return response
        const [row] = yield* sql<{ response: unknown }>`SELECT response FROM idempotent_requests
            WHERE tenant_id = ${c.tenantId} AND scope = ${c.scope} AND key = ${c.key}`
        return row === undefined ? response : fromJson(row.response)
      }, Effect.orDie)

      return {
        claim,
        finish,
        run: Effect.fnUntraced(function*(c, work, onAnswered) {
          const outcome = yield* claim(c)
          if (outcome._tag === "Answered") return yield* onAnswered(outcome)
          const result = yield* work.pipe(withIdsFrom(`${c.tenantId}/${c.scope}/${c.key}`, outcome.epochMillis))
          return (yield* finish(c, result)) as typeof result
        }),
        interrupted: Effect.fnUntraced(function*(scope, olderThanMillis, limit) {
          const before = new Date((yield* Clock.currentTimeMillis) - olderThanMillis).toISOString()
          const rows = yield* sql<
            { tenant_id: string; key: string; actor: string; request: unknown }
          >`SELECT tenant_id, key, actor, request
              FROM idempotent_requests WHERE scope = ${scope} AND state = 'IN_PROGRESS' AND started_at < ${before}
              ORDER BY started_at LIMIT ${limit}`
          return rows.map((row) => ({
            tenantId: row.tenant_id,
            key: row.key,
            actor: row.actor,
            request: fromJson(row.request)
          }))
        }, Effect.orDie),
        purgeExpired: Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis).toISOString()
          const purged = yield* sql`DELETE FROM idempotent_requests WHERE expires_at <= ${now} RETURNING key`
          return purged.length
        }).pipe(Effect.orDie)
      }
    })
  )
}

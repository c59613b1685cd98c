// Message correlation: a published message resumes every waiting instance whose subscription matches (tenant, name,
// correlation key) — one subscription per instance — and starts an instance of every active latest-version process
// whose message start event has that name. Matching nothing is a success with zero counts (SERVICE.md).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { newId } from "./Ids.ts"
import { ProcessInstances } from "./ProcessInstances.ts"

export interface Publication {
  readonly messageName: string
  readonly correlationKey?: string | number | undefined
  readonly variables?: Readonly<Record<string, unknown>> | undefined
}

export interface CorrelationResult {
  readonly correlatedCount: number
  readonly startedCount: number
  readonly instanceIds: ReadonlyArray<string>
}

export interface MessagesShape {
  readonly publish: (principal: Principal, message: Publication) => Effect.Effect<CorrelationResult>
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
            return { correlatedCount: resumedIds.length, startedCount: startedIds.length, instanceIds: [...resumedIds, ...startedIds] }
          })
      }
    })
  )
}

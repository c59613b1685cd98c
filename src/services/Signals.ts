// Signals are broadcast: every instance of the tenant waiting for the signal's name is resumed (each of its waiting
// signal events), and an instance starts at every signal start event of the latest active version of each process.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import type { ProcessInstanceId } from "../schema/ResourceIds.ts"
import { type EventStart, startAtEventStarts } from "./EventStarts.ts"
import { newId } from "./Ids.ts"
import type { CorrelationResult } from "./Messages.ts"
import { ProcessInstances } from "./ProcessInstances.ts"

export interface SignalsShape {
  readonly broadcast: (
    principal: Principal,
    signal: { readonly signalName: string; readonly variables?: Readonly<Record<string, unknown>> | undefined },
    /** Given by a signal throw event (its outbox row): delivering the same broadcast again changes nothing. */
    broadcastId?: string
  ) => Effect.Effect<Omit<CorrelationResult, "buffered" | "heldCount">>
}

export class Signals extends Context.Service<Signals, SignalsShape>()("flowcore/Signals") {
  static readonly layer = Layer.effect(
    Signals,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      return {
        broadcast: (principal, signal, givenId) =>
          Effect.gen(function*() {
            const variables = signal.variables ?? {}
            const broadcastId = givenId ?? (yield* newId)
            const waiting = yield* sql<
              { instance_id: ProcessInstanceId; id: string }
            >`SELECT instance_id, id FROM event_subscriptions
              WHERE tenant_id = ${principal.tenantId} AND kind = 'SIGNAL' AND name = ${signal.signalName}
              ORDER BY created_at, id`.pipe(Effect.orDie)
            const triggered = yield* Effect.forEach(waiting, (subscription) =>
              Effect.map(
                instances.deliver(principal, subscription.instance_id, {
                  type: "TriggerSignal",
                  subscriptionId: subscription.id,
                  variables
                }, `signal:${broadcastId}:${subscription.id}`),
                (delivery) => (delivery !== "missed" ? [subscription.instance_id] : [])
              ), { concurrency: 16 })
            const starts = yield* sql<EventStart>`SELECT s.deployment_id, s.node_id
              FROM signal_start_events s JOIN deployments d ON d.id = s.deployment_id
              WHERE s.tenant_id = ${principal.tenantId} AND s.signal_name = ${signal.signalName} AND d.state = 'ACTIVE'`
              .pipe(Effect.orDie)
            const startedIds = yield* startAtEventStarts(
              instances,
              principal,
              starts,
              variables,
              broadcastId,
              "signal-start"
            )
            const resumedIds = [...new Set(triggered.flat())]
            return {
              correlatedCount: resumedIds.length,
              startedCount: startedIds.length,
              instanceIds: [...resumedIds, ...startedIds]
            }
          })
      }
    })
  )
}

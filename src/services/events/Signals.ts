// Signals are broadcast: every instance of the tenant waiting for the signal's name is resumed (each of its waiting
// signal events), and an instance starts at every signal start event of the latest active version of each process.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../../auth/Principal.ts"
import { newId } from "../Ids.ts"
import { ProcessInstances } from "../instances/ProcessInstances.ts"
import { startAtSignalStarts } from "./EventStarts.ts"
import type { CorrelationResult } from "./Messages.ts"
import { deliverToWaiting, type WaitingSubscription } from "./WaitingSubscriptions.ts"

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
        broadcast: Effect.fnUntraced(function*(principal, signal, givenId) {
          const variables = signal.variables ?? {}
          const broadcastId = givenId ?? (yield* newId)
          const waiting = yield* sql<WaitingSubscription>`SELECT instance_id, id FROM event_subscriptions
              WHERE tenant_id = ${principal.tenantId} AND kind = 'SIGNAL' AND name = ${signal.signalName}
              ORDER BY created_at, id`.pipe(Effect.orDie)
          const triggered = yield* deliverToWaiting(instances, principal, waiting, (subscriptionId) => ({
            type: "TriggerSignal",
            subscriptionId,
            variables
          }), `signal:${broadcastId}`)
          const startedIds = yield* startAtSignalStarts(
            sql,
            instances,
            principal,
            signal.signalName,
            variables,
            broadcastId
          )
          const resumedIds = [...new Set(triggered.filter((t) => t.delivery !== "missed").map((t) => t.instanceId))]
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

// Fires due timers. A timer is a subscription row with its due time, committed with the state that scheduled it, so
// it survives any crash; this poller sends the owning instance an idempotent FireTimer (command id from the timer),
// late if the service was down (catch-up), exactly once in effect. Timers of suspended instances or deployments wait.
import { Cause, Clock, Context, Effect, Layer, Metric, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { nextCycleDue } from "../bpmn/Timer.ts"
import { runClusterLoop } from "../cluster/ClusterLoop.ts"
import { InstanceClient } from "../cluster/InstanceClient.ts"
import { InstanceRejected } from "../cluster/ProcessInstance.ts"
import { derivedId } from "../engine/Execute.ts"
import { timerLagSeconds } from "../observability/Metrics.ts"
import { fromJson, pgArray } from "../persistence/SqlValues.ts"
import { makeRetryDeferrals } from "./RetryDeferrals.ts"

export interface TimerPollerShape {
  /** Fires every timer due now (tests call it after moving the clock). */
  readonly fireDue: Effect.Effect<number>
}

export class TimerPoller extends Context.Service<TimerPoller, TimerPollerShape>()("flowcore/TimerPoller") {
  static readonly layer = Layer.effect(
    TimerPoller,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const client = yield* InstanceClient
      // A timer that could not be fired — its instance refused it (a loop without a wait state behind the timer
      // exceeds the run budget: engine/RunBudget.ts; a defect), or did not answer — is tried again after a delay
      // that grows to a minute (RetryDeferrals.ts), until the model or the instance is fixed (migrated, the token
      // moved, the instance canceled): not at every round, each time after running the loop up to the budget.
      const deferrals = makeRetryDeferrals()
      const afterTry = (key: string, what: string, nowMillis: number) =>
        deferrals.settle(key, nowMillis, (cause, delay) => {
          const rejected = Cause.findErrorOption(cause)
          const refused = Option.isSome(rejected) && rejected.value instanceof InstanceRejected
            ? rejected.value
            : undefined
          return refused?.reason === "UNPROCESSABLE"
            ? Effect.logError(`${what} not fired: ${refused.message}; tried again in ${delay / 1000} s`)
            : Effect.logWarning(`${what} not fired yet; tried again in ${delay / 1000} s`, cause)
        })
      const fireDue = Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        const now = new Date(nowMillis).toISOString()
        const waiting = (key: string) => deferrals.waiting(key, nowMillis)
        // Timers waiting out a failure are left out of the query, so they never crowd out the others due.
        const deferred = deferrals.waitingKeys(nowMillis)
        // Due timers first, by their index; each one's instance and deployment looked up on its own (LATERAL). As a
        // plain join, a plan made while the tables were small or unanalyzed (a prepared statement keeps its plan)
        // read every active instance on every round: 77–135 ms per round with 30,000 instances waiting on messages.
        const due = yield* sql<
          { instance_id: string; id: string; tenant_id: string; due_at: unknown }
        >`SELECT s.instance_id, s.id, s.tenant_id, s.due_at
          FROM event_subscriptions s
            CROSS JOIN LATERAL (SELECT 1 FROM process_instances i JOIN deployments d ON d.id = i.deployment_id
              WHERE i.id = s.instance_id AND i.state = 'ACTIVE' AND d.state = 'ACTIVE' LIMIT 1) active
          WHERE s.kind = 'TIMER' AND s.due_at <= ${now} AND s.id <> ALL(${pgArray(deferred)}::text[])
          ORDER BY s.due_at LIMIT 500`
        // How late the oldest due timer fires (0 when none is due): the lag an operator watches.
        const oldest = due[0] === undefined ? undefined : new Date(due[0].due_at as string).getTime()
        yield* Metric.update(
          timerLagSeconds,
          oldest === undefined ? 0 : Math.max(0, (new Date(now).getTime() - oldest) / 1000)
        )
        yield* Effect.forEach(due.filter((timer) => !waiting(timer.id)), (timer) =>
          client(timer.instance_id).Execute({
            commandId: `timer:${timer.id}`,
            tenantId: timer.tenant_id,
            actor: "system:timer",
            command: { type: "FireTimer", subscriptionId: timer.id }
          }).pipe(
            // A timer whose instance does not answer (its runner is gone) is tried later; it never holds the loop.
            Effect.timeout("10 seconds"),
            afterTry(timer.id, `timer ${timer.id}`, nowMillis)
          ), { concurrency: 16, discard: true })
        // Timer start events: one instance each, with an id derived from the timer, so firing twice starts once.
        const starts = yield* sql<
          { tenant_id: string; deployment_id: string; node_id: string; due_at: unknown; fired: number; graph: unknown }
        >`SELECT t.tenant_id, t.deployment_id, t.node_id, t.due_at, t.fired, d.graph
          FROM timer_start_events t JOIN deployments d ON d.id = t.deployment_id
          WHERE t.due_at <= ${now} AND d.state = 'ACTIVE' ORDER BY t.due_at LIMIT 100`
        // A cycle is scheduled again for its next occurrence (missed ones collapse into this fire); else it is done.
        const afterFire = (start: (typeof starts)[number]) => {
          const timer = fromJson<ProcessGraph>(start.graph).timerStarts?.find((t) => t.nodeId === start.node_id)?.timer
          const fired = Number(start.fired) + 1
          const next = timer === undefined
            ? null
            : nextCycleDue(timer, new Date(start.due_at as string).getTime(), new Date(now).getTime(), fired, {})
          return next === null
            ? sql`DELETE FROM timer_start_events WHERE deployment_id = ${start.deployment_id} AND node_id = ${start.node_id}`
            : sql`UPDATE timer_start_events SET due_at = ${new Date(next).toISOString()}, fired = ${fired}
                WHERE deployment_id = ${start.deployment_id} AND node_id = ${start.node_id}`
        }
        yield* Effect.forEach(
          starts.filter((start) => !waiting(`${start.deployment_id}/${start.node_id}`)),
          (start) =>
            client(
              derivedId(
                start.deployment_id,
                `timer-start:${start.node_id}${Number(start.fired) === 0 ? "" : `:${start.fired}`}`
              )
            ).Execute({
              commandId: "start",
              tenantId: start.tenant_id,
              actor: "system:timer",
              deploymentId: start.deployment_id,
              command: { type: "StartInstance", variables: {}, startNodeId: start.node_id }
            }).pipe(
              Effect.catchTag("InstanceRejected", (rejected) =>
                rejected.reason === "INVALID_STATE" && /already exists/.test(rejected.message)
                  ? Effect.void
                  : Effect.fail(rejected)),
              Effect.andThen(afterFire(start)),
              Effect.timeout("10 seconds"),
              afterTry(
                `${start.deployment_id}/${start.node_id}`,
                `timer start ${start.deployment_id}/${start.node_id}`,
                nowMillis
              )
            ),
          { concurrency: 4, discard: true }
        )
        return due.length + starts.length
      }).pipe(Effect.catchCause((cause) => Effect.as(Effect.logWarning("timer poll failed; retried", cause), 0)))
      yield* runClusterLoop("timer-poller", "250 millis", fireDue)
      return { fireDue }
    })
  )
}

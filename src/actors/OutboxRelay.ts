// Delivers the instance outbox: messages one instance's committed state owes another (start a called process,
// cancel a child, report a child's completion). Woken after each commit that wrote some, and polling once a second
// for what a crash left behind. Each delivery is an entity command with a deterministic id, so delivering twice
// changes nothing; a row is deleted only after its delivery was answered.
import { Clock, Context, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { type PendingWork, runPendingWork } from "../cluster/ClusterLoop.ts"
import { InstanceClient } from "../cluster/InstanceClient.ts"
import { callChainOf, MAX_CALL_DEPTH } from "../persistence/instances/CallChain.ts"
import type { OutboxKind } from "../persistence/instances/InstanceStore.ts"
import { decodeOutboxMessage } from "../persistence/projections/OutboxMessage.ts"
import { fromJson } from "../persistence/SqlValues.ts"
import { DecisionEvaluator } from "../services/decisions/DecisionEvaluator.ts"
import { Signals } from "../services/events/Signals.ts"
import { makeRetryDeferrals } from "./RetryDeferrals.ts"

interface OutboxRow {
  readonly id: string
  readonly tenant_id: string
  readonly source_instance_id: string
  readonly target_instance_id: string
  readonly kind: OutboxKind
  readonly payload: unknown
  readonly actor: string
}

export class OutboxRelay extends Context.Service<OutboxRelay, PendingWork>()("flowcore/OutboxRelay") {
  static readonly layer = Layer.effect(
    OutboxRelay,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const client = yield* InstanceClient
      const decisions = yield* DecisionEvaluator
      const signals = yield* Signals

      const execute = (
        row: OutboxRow,
        commandId: string,
        command: Parameters<ReturnType<typeof client>["Execute"]>[0]["command"],
        extra: Record<string, unknown> = {}
      ) =>
        client(row.target_instance_id).Execute({
          commandId,
          tenantId: row.tenant_id,
          actor: row.actor,
          command,
          ...extra
        })

      const deliver = Effect.fnUntraced(
        function*(row: OutboxRow) {
          const decoded = decodeOutboxMessage({ ...fromJson<Record<string, unknown>>(row.payload), _tag: row.kind })
          if (Result.isFailure(decoded)) {
            // Not a message this version knows how to deliver: kept and reported, never guessed at.
            return yield* Effect.die(
              new Error(`outbox row ${row.id} (${row.kind}) is not a valid message: ${decoded.failure}`)
            )
          }
          const message = decoded.success
          switch (message._tag) {
            case "START_CHILD": {
              const processKey = message.processKey
              const failed = (message: string) =>
                client(row.source_instance_id).Execute({
                  commandId: `child-failed:${row.target_instance_id}`,
                  tenantId: row.tenant_id,
                  actor: row.actor,
                  command: { type: "ChildInstanceFailed", childInstanceId: row.target_instance_id, message }
                })
              // A call activity starts the latest version of the called process (BPMN: calledElement by key), the
              // latest one deployed with the version tag it binds to, or the one deployed together with the caller's
              // version (bindingType deployment: resolved from the calling instance's deployment).
              const versionTag = message.versionTag ?? null
              const together = message.binding === "deployment"
                ? sql`AND coalesce(bundle_id, id) = (SELECT coalesce(p.bundle_id, p.id) FROM process_instances i
                    JOIN deployments p ON p.id = i.deployment_id WHERE i.id = ${row.source_instance_id})`
                : sql`AND true`
              const [deployment] = yield* sql<{ id: string }>`SELECT id FROM deployments
                WHERE tenant_id = ${row.tenant_id} AND key = ${processKey}
                  AND (${versionTag}::text IS NULL OR graph->>'versionTag' = ${versionTag}::text) ${together}
                ORDER BY version DESC LIMIT 1`
              if (deployment === undefined) {
                return yield* failed(
                  message.binding === "deployment"
                    ? `called process ${processKey} is not in the deployment of the calling process version ` +
                      `(bindingType deployment)`
                    : versionTag === null
                    ? `called process ${processKey} is not deployed`
                    : `called process ${processKey} has no version with version tag ${versionTag}`
                )
              }
              // Below an instance that has ended nothing starts (its cancel is on the way down); past the maximum
              // depth (a process calling itself, directly or through others) the call is an incident.
              const chain = yield* callChainOf(sql, row.source_instance_id)
              if (chain.ended) return
              if (chain.depth + 1 > MAX_CALL_DEPTH) {
                return yield* failed(
                  `called process ${processKey} is not started: it would be ${chain.depth + 1} calls deep, more than ` +
                    `the maximum call depth of ${MAX_CALL_DEPTH} (does a process call itself?)`
                )
              }
              yield* execute(row, "start", {
                type: "StartInstance",
                variables: message.variables,
                called: true
              }, {
                deploymentId: deployment.id,
                parent: {
                  instanceId: row.source_instance_id,
                  nodeId: message.parentNodeId,
                  rootInstanceId: chain.rootInstanceId
                }
              }).pipe(
                Effect.catchTag(
                  "InstanceRejected",
                  (rejected) =>
                    rejected.reason === "INVALID_STATE" && /already exists/.test(rejected.message)
                      ? Effect.void
                      : failed(`called process ${processKey} could not start: ${rejected.message}`)
                )
              )
              // The chain ended while the child started: its cancel may have missed the child, so it is canceled here
              // (with the command id the caller's cancel uses, so the two are one).
              if ((yield* callChainOf(sql, row.source_instance_id)).ended) {
                yield* execute(row, `cancel-by-parent:${row.source_instance_id}`, { type: "CancelInstance" })
              }
              return
            }
            case "CANCEL_CHILD":
              return yield* execute(row, `cancel-by-parent:${row.source_instance_id}`, { type: "CancelInstance" })
            case "EVALUATE_DECISION": {
              const evaluationId = message.evaluationId
              const outcome = yield* Effect.result(
                decisions.evaluateLatest(row.tenant_id, message.decisionId, message.variables, {
                  versionTag: message.versionTag,
                  ...(message.binding === "deployment" ? { deploymentOfInstance: row.source_instance_id } : {})
                })
              )
              return yield* execute(
                row,
                `decision:${evaluationId}`,
                outcome._tag === "Success"
                  ? {
                    type: "DecisionEvaluated",
                    evaluationId,
                    result: outcome.success.result,
                    outputs: outcome.success.outputs
                  }
                  : { type: "DecisionFailed", evaluationId, message: outcome.failure.message }
              )
            }
            case "CORRELATE_MESSAGE":
              return yield* execute(
                row,
                `message:${message.messageKey}:${message.subscriptionId}`,
                { type: "CorrelateMessage", subscriptionId: message.subscriptionId, variables: message.variables }
              )
            case "BROADCAST_SIGNAL":
              // A signal throw event: the same broadcast as POST /signals, in the name of whoever moved the instance.
              return yield* signals.broadcast(
                { sub: row.actor, tenantId: row.tenant_id, roles: [], source: "local" },
                { signalName: message.signalName, variables: message.variables },
                message.broadcastId
              )
            case "CHILD_ERROR":
              return yield* execute(row, `child-error:${row.source_instance_id}`, {
                type: "ChildErrorThrown",
                childInstanceId: row.source_instance_id,
                errorCode: message.errorCode,
                errorMessage: message.errorMessage,
                variables: message.variables
              })
            case "CHILD_ESCALATION":
              return yield* execute(row, `child-escalation:${row.id}`, {
                type: "ChildEscalated",
                childInstanceId: row.source_instance_id,
                escalationCode: message.escalationCode
              })
            case "CHILD_COMPLETED":
              return yield* execute(row, `child-completed:${row.source_instance_id}`, {
                type: "ChildInstanceCompleted",
                childInstanceId: row.source_instance_id,
                variables: message.variables
              })
          }
        },
        // The target no longer takes it (finished, canceled meanwhile): nothing left to deliver. A defect in the
        // target (INTERNAL) is not the message's fault: it stays, and is tried again on a later round.
        Effect.catchTag(
          "InstanceRejected",
          (rejected) => rejected.reason === "INTERNAL" ? Effect.fail(rejected) : Effect.void
        ),
        (effect, row) => Effect.andThen(effect, sql`DELETE FROM instance_outbox WHERE id = ${row.id}`)
      )

      // One round walks the outbox once, in id order: a row that could not be delivered stays, and is tried again
      // after a delay that grows to a minute (RetryDeferrals.ts) — a target that keeps failing on it (a defect) costs
      // one try a minute, not one per round.
      const deferrals = makeRetryDeferrals()
      const deliverPending = Effect.gen(function*() {
        const nowMillis = yield* Clock.currentTimeMillis
        let after: string | undefined
        for (;;) {
          const rows = yield* (after === undefined
            ? sql<OutboxRow>`SELECT * FROM instance_outbox ORDER BY id LIMIT 100`
            : sql<OutboxRow>`SELECT * FROM instance_outbox WHERE id > ${after} ORDER BY id LIMIT 100`)
          if (rows.length === 0) return
          after = rows[rows.length - 1]!.id
          yield* Effect.forEach(rows.filter((row) => !deferrals.waiting(row.id, nowMillis)), (row) =>
            deliver(row).pipe(
              Effect.timeout("10 seconds"),
              deferrals.settle(row.id, nowMillis, (cause, delay) =>
                Effect.logWarning(`outbox delivery failed; tried again in ${delay / 1000} s`, cause))
            ), { concurrency: 8 })
        }
      })

      return yield* runPendingWork("outbox-relay", "outbox relay", deliverPending)
    })
  )
}

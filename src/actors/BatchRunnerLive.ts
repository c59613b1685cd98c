// Works off batch operations: PENDING items are applied one command each (concurrency 4 per pass) and marked
// SUCCEEDED or FAILED with the reason; a batch without pending items is COMPLETED. Woken when a batch is created and
// polling once a second, so a batch interrupted by a restart goes on. Item commands have ids derived from the batch
// and the target: an item applied twice (crash between command and mark) changes nothing the second time.
import { Clock, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { inTenant } from "../auth/CurrentTenant.ts"
import { CurrentPrincipal, type Principal } from "../auth/Principal.ts"
import { type BatchParameters, BatchRunner } from "../cluster/BatchRunner.ts"
import { runPendingWork } from "../cluster/ClusterLoop.ts"
import { fromJson } from "../persistence/SqlValues.ts"
import { IncidentId, JobId, parseId, ProcessInstanceId } from "../schema/ResourceIds.ts"
import { isClusterFailure } from "../services/EntitySend.ts"
import { IncidentRecovery } from "../services/instances/IncidentRecovery.ts"
import { ProcessInstances } from "../services/instances/ProcessInstances.ts"
import { Work } from "../services/work/Work.ts"

interface PendingItem {
  readonly batch_id: string
  readonly position: number
  readonly target_id: string
  readonly tenant_id: string
  readonly type: string
  readonly parameters: unknown
  readonly created_by: string
}

const instanceId = parseId(ProcessInstanceId)
const jobId = parseId(JobId)
const incidentId = parseId(IncidentId)

const messageOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? error.message
    : String(error)

export const BatchRunnerLive = Layer.effect(
  BatchRunner,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const instances = yield* ProcessInstances
    const work = yield* Work
    const recovery = yield* IncidentRecovery

    const apply = (item: PendingItem): Effect.Effect<void, unknown> => {
      const principal: Principal = { sub: item.created_by, tenantId: item.tenant_id, roles: [], source: "local" }
      const parameters = fromJson<BatchParameters>(item.parameters)
      const commandId = `batch:${item.batch_id}:${item.position}`
      // Target ids came from the caller: one that is not a UUID fails its item as "not found".
      const id = item.target_id
      switch (item.type) {
        case "CANCEL":
          return Effect.flatMap(
            instanceId(id),
            (target) => instances.command(principal, target, { type: "CancelInstance" }, commandId)
          )
        case "SET_VARIABLES":
          return Effect.flatMap(instanceId(id), (target) =>
            instances.command(
              principal,
              target,
              { type: "SetVariables", variables: parameters.variables ?? {} },
              commandId
            ))
        case "RETRY":
          return Effect.flatMap(jobId(id), (target) => work.updateRetries(principal, target, parameters.retries ?? 1))
        case "RESOLVE_INCIDENT":
          // Recovered as if the batch's creator asked, in the batch's tenant.
          return Effect.flatMap(incidentId(id), (target) =>
            recovery.recover(target, { kind: "retry" }).pipe(
              Effect.provideService(CurrentPrincipal, principal),
              inTenant(item.tenant_id)
            ))
        case "MIGRATE": {
          const migration = parameters.migration!
          return Effect.flatMap(
            instances.migrate(principal, { processInstanceIds: [id], ...migration }),
            (
              outcome
            ) => (outcome.failed.length > 0 ? Effect.fail(new Error(outcome.failed[0]!.message)) : Effect.void)
          )
        }
        default:
          return Effect.fail(new Error(`unknown batch type ${item.type}`))
      }
    }

    // A defect of the item's own command (the database refused a value, the instance answered INTERNAL) fails the item:
    // left PENDING it would be applied again at every pass, for ever, and fail the pass each time — the items and
    // batches after it with it. The cluster's passing failures (a shard in transit) stay defects: the next pass retries.
    const failedWith = (item: PendingItem, defect: unknown): Effect.Effect<never, unknown> =>
      isClusterFailure(defect) ? Effect.die(defect) : Effect.andThen(
        Effect.logError("batch item failed with a defect", defect).pipe(
          Effect.annotateLogs({ batchId: item.batch_id, position: item.position })
        ),
        Effect.fail(new Error("internal error: the item's command failed (logged with the batch id and position)"))
      )

    const mark = (
      item: PendingItem,
      outcome: { readonly state: "SUCCEEDED" | "FAILED"; readonly message: string | null }
    ) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (now) =>
          sql`UPDATE batch_operation_items SET state = ${outcome.state}, message = ${outcome.message}, processed_at = ${
            new Date(now).toISOString()
          }
            WHERE batch_id = ${item.batch_id} AND position = ${item.position}`
      )

    const pass = Effect.gen(function*() {
      for (;;) {
        const items = yield* sql<
          PendingItem
        >`SELECT i.batch_id, i.position, i.target_id, b.tenant_id, b.type, b.parameters, b.created_by
            FROM batch_operation_items i JOIN batch_operations b ON b.id = i.batch_id
            WHERE i.state = 'PENDING' ORDER BY b.created_at, i.batch_id, i.position LIMIT 64`
        if (items.length > 0) {
          yield* Effect.forEach(items, (item) =>
            apply(item).pipe(
              Effect.catchDefect((defect) => failedWith(item, defect)),
              Effect.matchEffect({
                onSuccess: () => mark(item, { state: "SUCCEEDED", message: null }),
                onFailure: (error) => mark(item, { state: "FAILED", message: messageOf(error) })
              })
            ), { concurrency: 4, discard: true })
        }
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`UPDATE batch_operations b SET state = 'COMPLETED', completed_at = ${now}
            WHERE b.state = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM batch_operation_items i WHERE i.batch_id = b.id AND i.state = 'PENDING')`
        if (items.length === 0) return
      }
    })

    return yield* runPendingWork("batch-runner", "batch runner", pass)
  })
)

// Batch operations as the API sees them: creating one fixes its targets (given ids, or what a filter selects now)
// and hands them to the BatchRunner; reading one shows progress and each item's outcome.
import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { type BatchParameters, BatchRunner } from "../../cluster/BatchRunner.ts"
import { toJson } from "../../persistence/SqlValues.ts"
import { type NotFound, notFound, type ValidationError, validationError } from "../../schema/ApiErrors.ts"
import type { BatchOperation, CreateBatchOperation } from "../../schema/BatchOperations.ts"
import { BatchOperationId } from "../../schema/ResourceIds.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, isoOrNull, nowMillis } from "../Time.ts"

const MAX_TARGETS = 10_000

export interface BatchOperationsShape {
  /** A batch in the request's tenant (CurrentTenant), created by its caller (CurrentPrincipal). */
  readonly create: (
    input: typeof CreateBatchOperation.Type
  ) => Effect.Effect<BatchOperation, NotFound | ValidationError, CurrentTenant | CurrentPrincipal>
  readonly get: (id: BatchOperationId) => Effect.Effect<BatchOperation, NotFound, CurrentTenant>
}

interface BatchRow {
  readonly id: string
  readonly type: BatchOperation["type"]
  readonly state: BatchOperation["state"]
  readonly total: number
  readonly created_by: string
  readonly created_at: unknown
  readonly completed_at: unknown
}

interface ItemRow {
  readonly target_id: string
  readonly state: BatchOperation["items"][number]["state"]
  readonly message: string | null
  readonly processed_at: unknown
}

export class BatchOperations
  extends Context.Service<BatchOperations, BatchOperationsShape>()("flowcore/BatchOperations")
{
  static readonly layer = Layer.effect(
    BatchOperations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const runner = yield* BatchRunner

      const get = Effect.fnUntraced(function*(id: BatchOperationId) {
        const tenantId = yield* CurrentTenant
        const [batch] = yield* sql<
          BatchRow
        >`SELECT id, type, state, total, created_by, created_at, completed_at FROM batch_operations
            WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
        if (batch === undefined) return yield* notFound("batch operation", id)
        const items = yield* sql<ItemRow>`SELECT target_id, state, message, processed_at FROM batch_operation_items
            WHERE batch_id = ${id} ORDER BY position`.pipe(Effect.orDie)
        const count = (state: string) => items.filter((item) => item.state === state).length
        return {
          id: batch.id,
          type: batch.type,
          state: batch.state,
          total: Number(batch.total),
          pending: count("PENDING"),
          succeeded: count("SUCCEEDED"),
          failed: count("FAILED"),
          createdBy: batch.created_by,
          createdAt: isoFromDb(batch.created_at),
          completedAt: isoOrNull(batch.completed_at),
          items: items.map((item) => ({
            targetId: item.target_id,
            state: item.state,
            message: item.message,
            processedAt: isoOrNull(item.processed_at)
          }))
        }
      })

      /** The targets a filter selects now: running instances, or their FAILED jobs / open incidents. */
      const selected = Effect.fnUntraced(function*(
        tenantId: string,
        type: BatchOperation["type"],
        filter: NonNullable<typeof CreateBatchOperation.Type["filter"]>
      ) {
        if (filter.deploymentId !== undefined && !isUuid(filter.deploymentId)) return []
        const instances = sql.and([
          sql`i.tenant_id = ${tenantId}`,
          filter.state === undefined ? sql`i.state IN ('ACTIVE', 'SUSPENDED')` : sql`i.state = ${filter.state}`,
          ...(filter.processKey === undefined ? [] : [sql`i.process_key = ${filter.processKey}`]),
          ...(filter.deploymentId === undefined ? [] : [sql`i.deployment_id = ${filter.deploymentId}`]),
          ...(filter.hasIncident === undefined
            ? []
            : [filter.hasIncident ? sql`i.incident_count > 0` : sql`i.incident_count = 0`])
        ])
        const rows = type === "RETRY"
          ? yield* sql<{ id: string }>`SELECT j.id FROM jobs j JOIN process_instances i ON i.id = j.instance_id
                WHERE ${instances} AND j.state = 'FAILED' ORDER BY j.created_at, j.id LIMIT ${MAX_TARGETS + 1}`
          : type === "RESOLVE_INCIDENT"
          ? yield* sql<{ id: string }>`SELECT n.id FROM incidents n JOIN process_instances i ON i.id = n.instance_id
                WHERE ${instances} AND n.state = 'OPEN' ORDER BY n.created_at, n.id LIMIT ${MAX_TARGETS + 1}`
          : yield* sql<{ id: string }>`SELECT i.id FROM process_instances i WHERE ${instances}
                ORDER BY i.started_at, i.id LIMIT ${MAX_TARGETS + 1}`
        return rows.map((row) => row.id)
      }, Effect.orDie)

      return {
        get,
        create: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          if ((input.targetIds === undefined) === (input.filter === undefined)) {
            return yield* validationError("targetIds", "give either targetIds or filter")
          }
          if (input.type === "SET_VARIABLES" && input.variables === undefined) {
            return yield* validationError("variables", "SET_VARIABLES needs variables")
          }
          if (input.type === "MIGRATE") {
            if (input.migration === undefined) {
              return yield* validationError("migration", "MIGRATE needs migration.targetDeploymentId")
            }
            const target = input.migration.targetDeploymentId
            const [deployment] = isUuid(target)
              ? yield* sql<
                { id: string }
              >`SELECT id FROM deployments WHERE tenant_id = ${tenantId} AND id = ${target}`.pipe(Effect.orDie)
              : []
            if (deployment === undefined) {
              return yield* notFound("deployment", target)
            }
          }
          const targets = [...new Set(input.targetIds ?? (yield* selected(tenantId, input.type, input.filter!)))]
          if (targets.length > MAX_TARGETS) {
            return yield* validationError("filter", `selects more than ${MAX_TARGETS} targets; narrow it`)
          }
          const parameters: BatchParameters = {
            ...(input.variables === undefined ? {} : { variables: input.variables }),
            ...(input.retries === undefined ? {} : { retries: input.retries }),
            ...(input.migration === undefined ? {} : {
              migration: {
                targetDeploymentId: input.migration.targetDeploymentId,
                mappings: input.migration.mappings ?? [],
                mapEqualNodes: input.migration.mapEqualNodes ?? false
              }
            })
          }
          const id = BatchOperationId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO batch_operations (tenant_id, id, type, state, parameters, total, created_by, created_at, completed_at)
                VALUES (${tenantId}, ${id}, ${input.type}, ${targets.length === 0 ? "COMPLETED" : "ACTIVE"}, ${
              toJson(parameters)
            }::jsonb,
                  ${targets.length}, ${principal.sub}, ${now}, ${targets.length === 0 ? now : null})`
            for (let start = 0; start < targets.length; start += 1000) {
              const rows: Array<Record<string, unknown>> = targets.slice(start, start + 1000).map((
                targetId,
                index
              ) => ({
                batch_id: id,
                position: start + index,
                target_id: targetId,
                state: "PENDING",
                message: null,
                processed_at: null
              }))
              if (Arr.isArrayNonEmpty(rows)) {
                yield* sql`INSERT INTO batch_operation_items ${sql.insert(rows)}`
              }
            }
          })).pipe(Effect.orDie)
          if (targets.length > 0) yield* runner.wake
          return yield* get(id)
        })
      }
    })
  )
}

// Migrating running instances to another deployment of their process: every instance is checked first (the same
// process, every active node mapped to a compatible node; all problems in one 400), then each migrates atomically
// through its entity (a failure of one is reported beside the others' success).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../../auth/Principal.ts"
import { fromJson } from "../../persistence/SqlValues.ts"
import { conflict, notFound, type RequestError, ValidationError, validationError } from "../../schema/ApiErrors.ts"
import { parseId, ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { isUuid, newId } from "../Ids.ts"
import type { sendCommand } from "./InstanceCommandSender.ts"
import { ProcessEngine } from "./ProcessEngine.ts"

export interface MigrationRequest {
  readonly processInstanceIds: ReadonlyArray<string>
  readonly targetDeploymentId: string
  readonly mappings: ReadonlyArray<{ readonly sourceNodeId: string; readonly targetNodeId: string }>
  readonly mapEqualNodes: boolean
}

export interface MigrationOutcome {
  readonly targetDeploymentId: string
  readonly migratedCount: number
  readonly processInstanceIds: ReadonlyArray<string>
  readonly failed: ReadonlyArray<{ readonly processInstanceId: string; readonly message: string }>
}

export type MigrateInstances = (
  principal: Principal,
  input: MigrationRequest
) => Effect.Effect<MigrationOutcome, RequestError>

/** Migration in the principal's tenant, its commands sent with `send`. */
export const makeInstanceMigration = (
  send: ReturnType<typeof sendCommand>
): Effect.Effect<MigrateInstances, never, SqlClient.SqlClient | ProcessEngine> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const engine = yield* ProcessEngine
    return Effect.fnUntraced(function*(principal, input) {
      const tenantId = principal.tenantId
      if (!isUuid(input.targetDeploymentId)) return yield* notFound("deployment", input.targetDeploymentId)
      const [target] = yield* sql<
        { id: string; key: string; graph: unknown }
      >`SELECT id, key, graph FROM deployments
              WHERE tenant_id = ${tenantId} AND id = ${input.targetDeploymentId}`.pipe(Effect.orDie)
      if (target === undefined) return yield* notFound("deployment", input.targetDeploymentId)
      const mappings: Record<string, string> = {}
      for (const mapping of input.mappings) {
        if (mapping.sourceNodeId in mappings) {
          return yield* validationError("mappings", `${mapping.sourceNodeId} is mapped twice`)
        }
        mappings[mapping.sourceNodeId] = mapping.targetNodeId
      }
      // Ids from the body: one that is not a UUID names no instance.
      const ids = yield* Effect.forEach([...new Set(input.processInstanceIds)], parseId(ProcessInstanceId))
      const rows = yield* sql<
        { id: string; process_key: string; state: string; engine_state: unknown; graph: unknown }
      >`SELECT i.id,
                i.process_key, i.state, i.engine_state, d.graph
              FROM process_instances i JOIN deployments d ON d.id = i.deployment_id
              WHERE i.tenant_id = ${tenantId} AND ${sql.in("i.id", ids)}`.pipe(Effect.orDie)
      const missing = ids.find((id) => !rows.some((row) => row.id === id))
      if (missing !== undefined) return yield* notFound("process instance", missing)
      const ended = rows.filter((row) => row.state === "COMPLETED" || row.state === "CANCELED")
      if (ended.length > 0) {
        return yield* conflict(
          `only running instances can be migrated: ${ended.map((row) => `${row.id} is ${row.state}`).join(", ")}`,
          ended.map((row) => ({
            field: "processInstanceIds",
            message: `${row.id} is ${row.state}`,
            code: "NOT_RUNNING"
          }))
        )
      }
      // Up front, for every instance: the same process, and every active node mapped to a compatible node.
      const problems: Array<{ field: string; message: string; code: string }> = []
      const plans = new Map<string, Readonly<Record<string, string>>>()
      for (const row of rows) {
        if (row.process_key !== target.key) {
          problems.push({
            field: "targetDeploymentId",
            message: `${row.id} runs process ${row.process_key}, the target deployment is process ${target.key}`,
            code: "OTHER_PROCESS"
          })
          continue
        }
        const plan = engine.planMigration({
          source: fromJson(row.graph),
          target: fromJson(target.graph),
          state: fromJson(row.engine_state),
          mappings,
          mapEqualNodes: input.mapEqualNodes
        })
        if (plan.ok) plans.set(row.id, { ...mappings, ...plan.mapping })
        else {problems.push(
            ...plan.problems.map((message) => ({
              field: "mappings",
              message: `instance ${row.id}: ${message}`,
              code: "UNMAPPED"
            }))
          )}
      }
      if (problems.length > 0) {
        return yield* new ValidationError({
          message: `the migration cannot be applied: ${problems.map((p) => p.message).join("; ")}`,
          errors: problems
        })
      }
      const migrationId = yield* newId
      const results = yield* Effect.forEach(ids, (id) =>
        send(principal, id, `migrate:${migrationId}`, {
          type: "MigrateInstance",
          targetDeploymentId: target.id,
          mappings: plans.get(id)!
        }).pipe(
          Effect.as({ id, message: null as string | null }),
          Effect.catch((error) => Effect.succeed({ id, message: error.message }))
        ), { concurrency: 8 })
      return {
        targetDeploymentId: target.id,
        migratedCount: results.filter((r) => r.message === null).length,
        processInstanceIds: results.filter((r) => r.message === null).map((r) => r.id),
        failed: results.flatMap((
          r
        ) => (r.message === null ? [] : [{ processInstanceId: r.id, message: r.message }]))
      }
    })
  })

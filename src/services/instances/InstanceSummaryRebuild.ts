// Rebuilds the instance summary projection (the state, variables, variable version and incident count on each
// process_instances row) from the instance's history: every event replayed through the engine, the row rewritten
// where it differs. The rewrite is guarded by last_event_seq, so an instance that moved on meanwhile keeps the
// summary its own commit wrote.
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { fromJson, toJson } from "../../persistence/SqlValues.ts"
import { ProcessEngine } from "./ProcessEngine.ts"

export interface RebuildOutcome {
  readonly projection: "instance-summary"
  readonly instances: number
  readonly corrected: number
  readonly durationMillis: number
}

/** For the request's tenant (CurrentTenant). */
export interface InstanceSummaryRebuildShape {
  readonly rebuild: () => Effect.Effect<RebuildOutcome, never, CurrentTenant>
}

interface SummaryRow {
  readonly id: string
  readonly state: string
  readonly variables: unknown
  readonly variables_version: unknown
  readonly incident_count: unknown
  readonly last_event_seq: unknown
}

const BATCH = 200

/** JSON with object keys sorted: jsonb keeps its own key order, so plain JSON texts of equal values can differ. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : typeof value === "object" && value !== null
    ? `{${
      Object.keys(value).sort().map((key) =>
        `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`
      ).join(",")
    }}`
    : JSON.stringify(value ?? null)

export class InstanceSummaryRebuild
  extends Context.Service<InstanceSummaryRebuild, InstanceSummaryRebuildShape>()("flowcore/InstanceSummaryRebuild")
{
  static readonly layer = Layer.effect(
    InstanceSummaryRebuild,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const engine = yield* ProcessEngine
      return {
        rebuild: Effect.fnUntraced(function*() {
          const tenantId = yield* CurrentTenant
          const began = yield* Clock.currentTimeMillis
          let instances = 0
          let corrected = 0
          for (let after = "";;) {
            const rows = yield* sql<
              SummaryRow
            >`SELECT id, state, variables, variables_version, incident_count, last_event_seq
                FROM process_instances WHERE tenant_id = ${tenantId} AND id::text > ${after} ORDER BY id::text LIMIT ${BATCH}`
            if (rows.length === 0) break
            for (const row of rows) {
              instances++
              const events = yield* sql<
                { type: string; node_id: string | null; token_id: string | null; payload: unknown }
              >`SELECT type, node_id,
                    token_id, payload FROM instance_events WHERE instance_id = ${row.id} ORDER BY event_seq`
              if (events.length === 0) continue
              const snapshot = engine.snapshot(
                row.id,
                events.map((event) => ({
                  type: event.type,
                  nodeId: event.node_id,
                  tokenId: event.token_id,
                  payload: fromJson<Record<string, unknown>>(event.payload)
                }))
              )
              const same = snapshot.status === row.state && Number(row.incident_count) === snapshot.openIncidents &&
                Number(row.variables_version) === snapshot.variablesVersion &&
                canonical(fromJson(row.variables)) === canonical(snapshot.variables)
              if (same) continue
              const updated = yield* sql`UPDATE process_instances SET state = ${snapshot.status}, variables = ${
                toJson(snapshot.variables)
              }::jsonb,
                    variables_version = ${snapshot.variablesVersion}, incident_count = ${snapshot.openIncidents}
                  WHERE id = ${row.id} AND last_event_seq = ${Number(row.last_event_seq)} RETURNING id`
              corrected += updated.length
            }
            after = rows[rows.length - 1]!.id
          }
          return {
            projection: "instance-summary" as const,
            instances,
            corrected,
            durationMillis: (yield* Clock.currentTimeMillis) - began
          }
        }, Effect.orDie)
      }
    })
  )
}

// Insights computed by SQL over the projections: per process its duration and completion rate, per job type its
// reliability, and the age of human tasks; and a report of completion rate or duration grouped by a variable.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../auth/CurrentTenant.ts"
import type { ValidationError } from "../schema/ApiErrors.ts"
import type { Insights as InsightsResult, InsightsReport } from "../schema/Insights.ts"
import { queryInstant } from "./QueryInstant.ts"
import { nowMillis } from "./Time.ts"

export interface InsightsFilter {
  readonly processKey?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

/** For the request's tenant (CurrentTenant). */
export interface InsightsShape {
  readonly metrics: (
    filter: InsightsFilter
  ) => Effect.Effect<typeof InsightsResult.Type, ValidationError, CurrentTenant>
  readonly report: (
    filter: InsightsFilter & { readonly metric: "COMPLETION_RATE" | "DURATION"; readonly groupBy?: string | undefined }
  ) => Effect.Effect<typeof InsightsReport.Type, ValidationError, CurrentTenant>
}

const num = (
  value: unknown
): number | null => (value === null || value === undefined ? null : Math.round(Number(value) * 1000) / 1000)
const int = (value: unknown): number => Number(value ?? 0)
const rate = (
  part: number,
  whole: number
): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000)

export class Insights extends Context.Service<Insights, InsightsShape>()("flowcore/Insights") {
  static readonly layer = Layer.effect(
    Insights,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const instancesWhere = Effect.fnUntraced(function*(tenantId: string, filter: InsightsFilter) {
        const from = yield* queryInstant("from", filter.from)
        const to = yield* queryInstant("to", filter.to)
        return sql.and([
          sql`i.tenant_id = ${tenantId}`,
          ...(filter.processKey === undefined ? [] : [sql`i.process_key = ${filter.processKey}`]),
          ...(from === undefined ? [] : [sql`i.started_at >= ${from}`]),
          ...(to === undefined ? [] : [sql`i.started_at < ${to}`])
        ])
      })

      const durationMs = sql`extract(epoch FROM (i.ended_at - i.started_at)) * 1000`

      return {
        metrics: Effect.fnUntraced(function*(filter) {
          const tenantId = yield* CurrentTenant
          const where = yield* instancesWhere(tenantId, filter)
          const now = new Date(yield* nowMillis).toISOString()
          const [processes, jobs, tasks] = yield* Effect.all([
            sql<Record<string, unknown>>`SELECT i.process_key,
                  count(*) AS started,
                  count(*) FILTER (WHERE i.state = 'COMPLETED') AS completed,
                  count(*) FILTER (WHERE i.state = 'CANCELED') AS canceled,
                  count(*) FILTER (WHERE i.state IN ('ACTIVE', 'SUSPENDED')) AS running,
                  count(*) FILTER (WHERE i.incident_count > 0) AS with_incidents,
                  avg(${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS avg_ms,
                  percentile_cont(0.5) WITHIN GROUP (ORDER BY ${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS p50_ms,
                  percentile_cont(0.95) WITHIN GROUP (ORDER BY ${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS p95_ms,
                  max(${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS max_ms
                FROM process_instances i WHERE ${where} GROUP BY i.process_key ORDER BY i.process_key`,
            sql<Record<string, unknown>>`WITH job_rows AS (
                  SELECT j.type, j.state, (SELECT count(*) FROM job_failures f WHERE f.job_id = j.id) AS failures
                  FROM jobs j JOIN process_instances i ON i.id = j.instance_id WHERE ${where})
                SELECT type, count(*) AS total,
                  count(*) FILTER (WHERE state = 'COMPLETED') AS completed,
                  count(*) FILTER (WHERE state = 'FAILED') AS dead_lettered,
                  coalesce(sum(failures), 0) AS failures,
                  count(*) FILTER (WHERE state = 'COMPLETED' AND failures = 0) AS clean
                FROM job_rows GROUP BY type ORDER BY type`,
            sql<Record<string, unknown>>`SELECT
                  count(*) FILTER (WHERE t.state = 'CREATED') AS open,
                  avg(extract(epoch FROM (${now}::timestamptz - t.created_at)) * 1000) FILTER (WHERE t.state = 'CREATED') AS avg_open_age,
                  max(extract(epoch FROM (${now}::timestamptz - t.created_at)) * 1000) FILTER (WHERE t.state = 'CREATED') AS oldest_open_age,
                  count(*) FILTER (WHERE t.state = 'COMPLETED') AS completed,
                  avg(extract(epoch FROM (t.completed_at - t.created_at)) * 1000) FILTER (WHERE t.state = 'COMPLETED') AS avg_completion
                FROM user_tasks t JOIN process_instances i ON i.id = t.instance_id WHERE ${where}`
          ]).pipe(Effect.orDie)
          const taskRow = tasks[0] ?? {}
          return {
            processes: processes.map((row) => ({
              processKey: String(row["process_key"]),
              started: int(row["started"]),
              completed: int(row["completed"]),
              canceled: int(row["canceled"]),
              running: int(row["running"]),
              withIncidents: int(row["with_incidents"]),
              completionRate: rate(int(row["completed"]), int(row["completed"]) + int(row["canceled"])),
              duration: {
                avg: num(row["avg_ms"]),
                p50: num(row["p50_ms"]),
                p95: num(row["p95_ms"]),
                max: num(row["max_ms"])
              }
            })),
            jobs: jobs.map((row) => ({
              type: String(row["type"]),
              total: int(row["total"]),
              completed: int(row["completed"]),
              deadLettered: int(row["dead_lettered"]),
              failures: int(row["failures"]),
              firstTimeSuccessRate: rate(int(row["clean"]), int(row["completed"]))
            })),
            tasks: {
              open: int(taskRow["open"]),
              averageOpenAge: num(taskRow["avg_open_age"]),
              oldestOpenAge: num(taskRow["oldest_open_age"]),
              completed: int(taskRow["completed"]),
              averageCompletionTime: num(taskRow["avg_completion"])
            },
            measuredAt: now
          }
        }),
        report: Effect.fnUntraced(function*(filter) {
          const tenantId = yield* CurrentTenant
          const where = yield* instancesWhere(tenantId, filter)
          const group = filter.groupBy === undefined ? sql`NULL::text` : sql`i.variables ->> ${filter.groupBy}`
          const rows = yield* sql<Record<string, unknown>>`SELECT ${group} AS grp,
                count(*) AS instances,
                count(*) FILTER (WHERE i.state = 'COMPLETED') AS completed,
                count(*) FILTER (WHERE i.state = 'CANCELED') AS canceled,
                count(*) FILTER (WHERE i.state IN ('ACTIVE', 'SUSPENDED')) AS running,
                avg(${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS avg_ms,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY ${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS p50_ms,
                percentile_cont(0.95) WITHIN GROUP (ORDER BY ${durationMs}) FILTER (WHERE i.state = 'COMPLETED') AS p95_ms
              FROM process_instances i WHERE ${where} GROUP BY 1 ORDER BY count(*) DESC, 1`.pipe(Effect.orDie)
          return {
            metric: filter.metric,
            groupBy: filter.groupBy ?? null,
            groups: rows.map((row) => {
              const completionRate = rate(int(row["completed"]), int(row["completed"]) + int(row["canceled"]))
              const averageDuration = num(row["avg_ms"])
              return {
                group: row["grp"] === null || row["grp"] === undefined ? null : String(row["grp"]),
                instances: int(row["instances"]),
                completed: int(row["completed"]),
                canceled: int(row["canceled"]),
                running: int(row["running"]),
                completionRate,
                averageDuration,
                p50Duration: num(row["p50_ms"]),
                p95Duration: num(row["p95_ms"]),
                value: filter.metric === "DURATION" ? averageDuration : completionRate
              }
            })
          }
        })
      }
    })
  )
}

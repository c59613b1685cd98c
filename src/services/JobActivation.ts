// Job activation: lock up to N jobs of a type for a worker (FOR UPDATE SKIP LOCKED on the projection), count the locks
// that ran out since the last activation (and dead-letter a job at JOB_TIMEOUT_LIMIT), and hand each job the variables
// its instance holds now (engine/JobVariables.ts).
import { Effect, Metric } from "effect"
import type { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { AppConfigShape } from "../config.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { jobVariablesNow } from "../engine/JobVariables.ts"
import { jobsActivated } from "../observability/Metrics.ts"
import { fromJson } from "../persistence/SqlValues.ts"
import type { ProcessInstanceId } from "../schema/ResourceIds.ts"
import type { Job } from "../schema/Work.ts"
import type { ProcessInstancesShape } from "./ProcessInstances.ts"
import { isoFromDb, isoOrNull, nowMillis } from "./Time.ts"

export const DEFAULT_MAX_JOBS = 10
export const DEFAULT_LOCK_MS = 300_000

export interface JobRow {
  readonly id: string
  readonly type: string
  readonly state: Job["state"]
  readonly instance_id: ProcessInstanceId
  readonly node_id: string
  readonly element_instance_id: string
  readonly retries: number
  readonly lock_expiries?: unknown
  readonly worker: string | null
  readonly deadline: unknown
  readonly custom_headers: unknown
  readonly variables: unknown
  readonly error_message: string | null
  readonly retry_policy?: unknown
  readonly created_at: unknown
  readonly updated_at: unknown
}

export const toJob = (row: JobRow): Job => ({
  id: row.id,
  type: row.type,
  state: row.state,
  processInstanceId: row.instance_id,
  nodeId: row.node_id,
  elementInstanceId: row.element_instance_id,
  retries: Number(row.retries),
  worker: row.worker,
  deadline: isoOrNull(row.deadline),
  customHeaders: fromJson(row.custom_headers),
  variables: fromJson(row.variables),
  errorMessage: row.error_message,
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

export interface ActivationRequest {
  readonly type: string
  readonly worker: string
  readonly maxJobsToActivate?: number | undefined
  readonly timeout?: number | undefined
  readonly fetchVariable?: ReadonlyArray<string> | undefined
  /** Long polling: with nothing available, wait up to this many ms for a job. */
  readonly requestTimeout?: number | undefined
}

export const makeJobActivation = (
  sql: SqlClient.SqlClient,
  instances: ProcessInstancesShape,
  config: AppConfigShape
) => {
  // Graphs never change for a deployment: parsed once.
  const graphs = new Map<string, ProcessGraph>()
  const graphOf = (deploymentId: string, raw: unknown): ProcessGraph => {
    const cached = graphs.get(deploymentId)
    if (cached !== undefined) return cached
    const graph = fromJson<ProcessGraph>(raw)
    if (graphs.size >= 1_000) graphs.delete(graphs.keys().next().value as string)
    graphs.set(deploymentId, graph)
    return graph
  }

  /** The variables of just-activated jobs as their instances hold them now (see core/JobVariables.ts). */
  const withVariablesNow = (jobs: ReadonlyArray<Job>) =>
    Effect.gen(function*() {
      if (jobs.length === 0) return jobs
      const instanceIds = [...new Set(jobs.map((job) => job.processInstanceId))]
      const rows = yield* sql<
        { id: string; deployment_id: string; engine_state: unknown }
      >`SELECT id, deployment_id, engine_state FROM process_instances WHERE ${sql.in("id", instanceIds)}`.pipe(
        Effect.orDie
      )
      // Graphs are read only for deployments not seen before (each is immutable).
      const unseen = [...new Set(rows.map((row) => row.deployment_id))].filter((id) => !graphs.has(id))
      if (unseen.length > 0) {
        const deployments = yield* sql<{ id: string; graph: unknown }>`SELECT id, graph FROM deployments
          WHERE ${sql.in("id", unseen)}`.pipe(Effect.orDie)
        for (const deployment of deployments) graphOf(deployment.id, deployment.graph)
      }
      const states = new Map(
        rows.flatMap((row) => {
          const graph = graphs.get(row.deployment_id)
          return graph === undefined
            ? []
            : [[row.id, { graph, state: fromJson<InstanceState>(row.engine_state) }] as const]
        })
      )
      return jobs.map((job) => {
        const instance = states.get(job.processInstanceId)
        const now = instance === undefined ? undefined : jobVariablesNow(instance.graph, instance.state, job.id)
        return now === undefined ? job : { ...job, variables: now }
      })
    })

  /**
   * A job whose lock ran out was not completed, failed or extended in time: its worker crashed or hung. Each expiry
   * is recorded in the job's retry history; at the limit (JOB_TIMEOUT_LIMIT) the job is not handed out again but
   * fails into a JOB_TIMEOUTS_EXCEEDED incident naming the count and the workers.
   */
  const recordExpiries = (
    tenantId: string,
    expired: ReadonlyArray<JobRow & { readonly previous_worker: string | null }>,
    nowText: string
  ) =>
    Effect.forEach(expired, (row) =>
      Effect.gen(function*() {
        yield* sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at, kind)
          SELECT ${tenantId}, ${row.id}, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${row.id}), ${row.previous_worker},
            ${`the lock of worker ${
          row.previous_worker ?? "?"
        } ran out before it completed, failed or extended the job`},
            ${row.retries}, NULL, ${nowText}, 'LOCK_EXPIRED'`.pipe(Effect.orDie)
        if (Number(row.lock_expiries) < config.jobTimeoutLimit) return false
        const workers = yield* sql<{ worker: string | null }>`SELECT DISTINCT worker FROM job_failures
          WHERE job_id = ${row.id} AND kind = 'LOCK_EXPIRED' ORDER BY worker`.pipe(Effect.orDie)
        const names = workers.map((w) => w.worker ?? "?").join(", ")
        // Not handed to the worker asking now: the failure is the system's.
        yield* sql`UPDATE jobs SET worker = NULL WHERE id = ${row.id}`.pipe(Effect.orDie)
        const system: Principal = { sub: "system:job-timeouts", tenantId, roles: [], source: "local" }
        yield* instances.command(system, row.instance_id, {
          type: "FailJob",
          jobId: row.id,
          retries: 0,
          errorMessage: `job ${row.id} timed out ${
            Number(row.lock_expiries)
          } times (workers: ${names}); its lock ran out each time`,
          retryAt: null,
          incidentType: "JOB_TIMEOUTS_EXCEEDED"
        }, `job-timeouts:${row.id}:${Number(row.lock_expiries)}`).pipe(
          Effect.catchCause((cause) =>
            Effect.logWarning(`job ${row.id} could not be dead-lettered after its timeouts`, cause)
          )
        )
        return true
      }), { concurrency: 1 })

  const activateNow = (tenantId: string, request: ActivationRequest) =>
    Effect.gen(function*() {
      const now = yield* nowMillis
      const nowText = new Date(now).toISOString()
      const deadline = new Date(now + (request.timeout ?? DEFAULT_LOCK_MS)).toISOString()
      // A job is activatable when nobody holds it or its holder's lock ran out; jobs of suspended instances wait.
      // The two kinds are picked apart so each walks its own index in order and stops at the limit: the cost follows
      // the jobs handed out, not the backlog or the jobs in flight.
      const limit = request.maxJobsToActivate ?? DEFAULT_MAX_JOBS
      const rows = yield* sql<
        JobRow & { readonly previous_state: string; readonly previous_worker: string | null }
      >`WITH expired AS (
            SELECT j.id, j.created_at, j.state AS previous_state, j.worker AS previous_worker FROM jobs j
            WHERE j.tenant_id = ${tenantId} AND j.type = ${request.type} AND j.state = 'ACTIVATED'
              AND j.deadline < ${nowText}
              AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
            ORDER BY j.deadline LIMIT ${limit}
            FOR UPDATE OF j SKIP LOCKED),
          ready AS (
            SELECT j.id, j.created_at, j.state AS previous_state, j.worker AS previous_worker FROM jobs j
            WHERE j.tenant_id = ${tenantId} AND j.type = ${request.type} AND j.state = 'ACTIVATABLE'
              AND (j.deadline IS NULL OR j.deadline <= ${nowText})
              AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
            ORDER BY j.created_at, j.id LIMIT ${limit}
            FOR UPDATE OF j SKIP LOCKED),
          picked AS (
            SELECT * FROM (SELECT * FROM expired UNION ALL SELECT * FROM ready) candidates
            ORDER BY created_at, id LIMIT ${limit})
          UPDATE jobs SET state = 'ACTIVATED', worker = ${request.worker}, deadline = ${deadline}, updated_at = ${nowText},
            lock_expiries = jobs.lock_expiries + CASE WHEN picked.previous_state = 'ACTIVATED' THEN 1 ELSE 0 END
          FROM picked WHERE jobs.id = picked.id
          RETURNING jobs.*, picked.previous_state, picked.previous_worker`.pipe(Effect.orDie)
      const expired = rows.filter((row) => row.previous_state === "ACTIVATED")
      const deadLettered = new Set<string>()
      if (expired.length > 0) {
        const outcomes = yield* recordExpiries(tenantId, expired, nowText)
        expired.forEach((row, i) => outcomes[i] === true && deadLettered.add(row.id))
      }
      const locked = rows.filter((row) => !deadLettered.has(row.id)).map(toJob)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      const jobs = yield* withVariablesNow(locked)
      if (jobs.length > 0) yield* Metric.update(jobsActivated, jobs.length)
      const only = request.fetchVariable
      return only === undefined
        ? jobs
        : jobs.map((job) => ({
          ...job,
          variables: Object.fromEntries(Object.entries(job.variables).filter(([name]) => only.includes(name)))
        }))
    })

  return { activateNow }
}

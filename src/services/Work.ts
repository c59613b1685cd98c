// Jobs, human tasks and incidents as workers and people see them. Reads and job locking work on the projections;
// completing goes to the instance's entity with a command id derived from the job or task, so a retried completion
// is applied once.
import { Clock, Context, Effect, Layer, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { countOf, fromJson } from "../persistence/SqlValues.ts"
import { businessError, type BusinessError, conflict, type Conflict, notFound, type NotFound, type ValidationError } from "../schema/ApiErrors.ts"
import { type PageOf, pageOf, type PageRequest } from "../schema/Common.ts"
import type { Incident, Job, RetryPolicy, UserTask } from "../schema/Work.ts"
import { backoffFor } from "./RetryBackoff.ts"
import { AppConfig } from "../config.ts"
import { jobVariablesNow } from "../core/JobVariables.ts"
import type { InstanceState } from "../core/InstanceState.ts"
import type { ProcessGraph } from "../core/ProcessGraph.ts"
import { isUuid } from "./Ids.ts"
import { JobAvailability } from "./JobAvailability.ts"
import { type IncidentRow, toIncident } from "./IncidentRows.ts"
import { ProcessInstances } from "./ProcessInstances.ts"
import { isoFromDb, isoOrNull, nowMillis } from "./Time.ts"

interface JobRow {
  readonly id: string
  readonly type: string
  readonly state: Job["state"]
  readonly instance_id: string
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

const toJob = (row: JobRow): Job => ({
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

interface TaskRow {
  readonly id: string
  readonly name: string | null
  readonly state: UserTask["state"]
  readonly instance_id: string
  readonly node_id: string
  readonly assignee: string | null
  readonly candidate_groups: unknown
  readonly candidate_users: unknown
  readonly form_key: string | null
  readonly owner?: string | null
  readonly delegation_state?: "PENDING" | "RESOLVED" | null
  readonly variables: unknown
  readonly created_at: unknown
  readonly updated_at: unknown
  readonly completed_at: unknown
}

const toTask = (row: TaskRow): UserTask => ({
  id: row.id,
  name: row.name,
  state: row.state,
  processInstanceId: row.instance_id,
  nodeId: row.node_id,
  assignee: row.assignee,
  candidateGroups: fromJson(row.candidate_groups),
  candidateUsers: fromJson(row.candidate_users),
  formKey: row.form_key,
  owner: row.owner ?? null,
  delegationState: row.delegation_state ?? null,
  variables: fromJson(row.variables),
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at),
  completedAt: isoOrNull(row.completed_at)
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

type CompleteError = NotFound | Conflict | ValidationError | BusinessError

export interface WorkShape {
  readonly activateJobs: (tenantId: string, request: ActivationRequest) => Effect.Effect<ReadonlyArray<Job>>
  /** Pushes jobs of a type to one worker as they become available, each locked for it (GET /jobs/stream). */
  readonly streamJobs: (tenantId: string, request: ActivationRequest) => Stream.Stream<Job>
  readonly completeJob: (principal: Principal, jobId: string, variables: Readonly<Record<string, unknown>>) => Effect.Effect<Job, CompleteError>
  readonly throwError: (
    principal: Principal,
    jobId: string,
    error: { readonly errorCode: string; readonly errorMessage?: string | undefined; readonly variables?: Readonly<Record<string, unknown>> | undefined }
  ) => Effect.Effect<Job, CompleteError>
  /** A technical failure: retries left -> activatable again after the backoff; none left -> an incident. */
  readonly failJob: (
    principal: Principal,
    jobId: string,
    failure: {
      readonly retries?: number | undefined
      readonly errorMessage?: string | undefined
      readonly retryBackOff?: number | undefined
      readonly variables?: Readonly<Record<string, unknown>> | undefined
    }
  ) => Effect.Effect<Job, CompleteError>
  /** New retries; a dead-lettered job's incident is resolved and the job is claimable again. */
  readonly updateRetries: (principal: Principal, jobId: string, retries: number) => Effect.Effect<Job, CompleteError>
  /** Extends the lock of an activated job. */
  readonly heartbeat: (
    principal: Principal,
    jobId: string,
    beat: { readonly worker?: string | undefined; readonly timeout?: number | undefined }
  ) => Effect.Effect<Job, NotFound | Conflict>
  readonly listJobs: (
    tenantId: string,
    filter: { readonly type?: string | undefined; readonly state?: Job["state"] | undefined; readonly processInstanceId?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Job>>
  readonly listTasks: (
    tenantId: string,
    filter: {
      readonly candidateGroup?: string | undefined
      readonly assignee?: string | undefined
      readonly state?: UserTask["state"] | undefined
      readonly processInstanceId?: string | undefined
    },
    page: PageRequest
  ) => Effect.Effect<PageOf<UserTask>>
  readonly completeTask: (principal: Principal, taskId: string, variables: Readonly<Record<string, unknown>>) => Effect.Effect<UserTask, CompleteError>
  readonly getTask: (tenantId: string, taskId: string) => Effect.Effect<UserTask, NotFound>
  readonly listIncidents: (
    tenantId: string,
    filter: { readonly state?: Incident["state"] | undefined; readonly processInstanceId?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Incident>>
}

const DEFAULT_MAX_JOBS = 10
const DEFAULT_LOCK_MS = 300_000

export class Work extends Context.Service<Work, WorkShape>()("flowcore/Work") {
  static readonly layer = Layer.effect(
    Work,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      const config = yield* AppConfig
      const availability = yield* JobAvailability

      const jobById = (tenantId: string, id: string) =>
        Effect.gen(function*() {
          if (!isUuid(id)) return yield* notFound("job", id)
          const rows = yield* sql<JobRow>`SELECT * FROM jobs WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("job", id)
          return rows[0]
        })

      const taskById = (tenantId: string, id: string) =>
        Effect.gen(function*() {
          if (!isUuid(id)) return yield* notFound("task", id)
          const rows = yield* sql<TaskRow>`SELECT * FROM user_tasks WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("task", id)
          return rows[0]
        })

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
          const rows = yield* sql<{ id: string; deployment_id: string; engine_state: unknown; graph: unknown }>`SELECT i.id, i.deployment_id,
              i.engine_state, d.graph FROM process_instances i JOIN deployments d ON d.id = i.deployment_id
            WHERE ${sql.in("i.id", instanceIds)}`.pipe(Effect.orDie)
          const states = new Map(rows.map((row) => [row.id, { graph: graphOf(row.deployment_id, row.graph), state: fromJson<InstanceState>(row.engine_state) }]))
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
      const recordExpiries = (tenantId: string, expired: ReadonlyArray<JobRow & { readonly previous_worker: string | null }>, nowText: string) =>
        Effect.forEach(expired, (row) =>
          Effect.gen(function*() {
            yield* sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at, kind)
              SELECT ${tenantId}, ${row.id}, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${row.id}), ${row.previous_worker},
                ${`the lock of worker ${row.previous_worker ?? "?"} ran out before it completed, failed or extended the job`},
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
              errorMessage: `job ${row.id} timed out ${Number(row.lock_expiries)} times (workers: ${names}); its lock ran out each time`,
              retryAt: null,
              incidentType: "JOB_TIMEOUTS_EXCEEDED"
            }, `job-timeouts:${row.id}:${Number(row.lock_expiries)}`).pipe(
              Effect.catchCause((cause) => Effect.logWarning(`job ${row.id} could not be dead-lettered after its timeouts`, cause))
            )
            return true
          }), { concurrency: 1 })

      const activateNow = (tenantId: string, request: ActivationRequest) =>
          Effect.gen(function*() {
            const now = yield* nowMillis
            const nowText = new Date(now).toISOString()
            const deadline = new Date(now + (request.timeout ?? DEFAULT_LOCK_MS)).toISOString()
            // A job is activatable when nobody holds it or its holder's lock ran out; jobs of suspended instances wait.
            const rows = yield* sql<JobRow & { readonly previous_state: string; readonly previous_worker: string | null }>`WITH picked AS (
                SELECT j.id, j.state AS previous_state, j.worker AS previous_worker FROM jobs j JOIN process_instances i ON i.id = j.instance_id
                WHERE j.tenant_id = ${tenantId} AND j.type = ${request.type} AND i.state = 'ACTIVE'
                  AND ((j.state = 'ACTIVATABLE' AND (j.deadline IS NULL OR j.deadline <= ${nowText}))
                    OR (j.state = 'ACTIVATED' AND j.deadline < ${nowText}))
                ORDER BY j.created_at, j.id
                LIMIT ${request.maxJobsToActivate ?? DEFAULT_MAX_JOBS}
                FOR UPDATE OF j SKIP LOCKED)
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
            const only = request.fetchVariable
            return only === undefined
              ? jobs
              : jobs.map((job) => ({ ...job, variables: Object.fromEntries(Object.entries(job.variables).filter(([name]) => only.includes(name))) }))
          })

      return {
        activateJobs: (tenantId, request) =>
          Effect.gen(function*() {
            const until = (yield* Clock.currentTimeMillis) + (request.requestTimeout ?? 0)
            for (;;) {
              const jobs = yield* activateNow(tenantId, request)
              const left = until - (yield* Clock.currentTimeMillis)
              if (jobs.length > 0 || left <= 0) return jobs
              // Woken by new jobs of the type, and re-checking at least every second for retries and expired locks.
              yield* availability.awaitJobs(tenantId, request.type, Math.min(left, 1000))
            }
          }),
        streamJobs: (tenantId, request) =>
          Stream.fromEffectRepeat(Effect.gen(function*() {
            const jobs = yield* activateNow(tenantId, request)
            if (jobs.length === 0) yield* availability.awaitJobs(tenantId, request.type, 1000)
            return jobs
          })).pipe(Stream.flattenIterable),
        completeJob: (principal, jobId, variables) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state === "COMPLETED" || job.state === "CANCELED") {
              return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()} and cannot be completed`)
            }
            yield* instances.command(principal, job.instance_id, { type: "CompleteJob", jobId, variables }, `complete-job:${jobId}`)
            return toJob(yield* jobById(principal.tenantId, jobId))
          }),
        throwError: (principal, jobId, error) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state !== "ACTIVATABLE" && job.state !== "ACTIVATED") {
              return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()}: no error can be thrown for it`)
            }
            yield* instances.command(principal, job.instance_id, {
              type: "ThrowError",
              jobId,
              errorCode: error.errorCode,
              errorMessage: error.errorMessage ?? "",
              variables: error.variables ?? {}
            }, `job-error:${jobId}`)
            return toJob(yield* jobById(principal.tenantId, jobId))
          }),
        failJob: (principal, jobId, failure) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state !== "ACTIVATABLE" && job.state !== "ACTIVATED") {
              return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()}: only an open job can fail`)
            }
            // Without an explicit count, one retry is used up (Camunda 7's habit; Zeebe workers send the count).
            const retries = Math.max(0, failure.retries ?? Number(job.retries) - 1)
            const now = yield* nowMillis
            // Without a backoff from the worker, the job's retry policy decides (attempt = failures so far + 1).
            const policy = job.retry_policy === null || job.retry_policy === undefined ? null : fromJson<RetryPolicy>(job.retry_policy)
            const failures = policy === null || failure.retryBackOff !== undefined
              ? 0
              : countOf(yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM job_failures WHERE job_id = ${jobId}`.pipe(Effect.orDie))
            const backOff = failure.retryBackOff ?? (policy === null ? 0 : backoffFor(policy, failures + 1))
            yield* instances.command(principal, job.instance_id, {
              type: "FailJob",
              jobId,
              retries,
              errorMessage: failure.errorMessage ?? "",
              retryAt: backOff > 0 && retries > 0 ? new Date(now + backOff).toISOString() : null,
              ...(failure.variables === undefined ? {} : { variables: failure.variables })
            })
            return toJob(yield* jobById(principal.tenantId, jobId))
          }),
        updateRetries: (principal, jobId, retries) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state !== "ACTIVATABLE" && job.state !== "ACTIVATED" && job.state !== "FAILED") {
              return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()}: its retries cannot change`)
            }
            yield* instances.command(principal, job.instance_id, { type: "UpdateJobRetries", jobId, retries })
            return toJob(yield* jobById(principal.tenantId, jobId))
          }),
        heartbeat: (principal, jobId, beat) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state !== "ACTIVATED") return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()}: only an activated job has a lock to extend`)
            if (beat.worker !== undefined && beat.worker !== job.worker) {
              return yield* conflict(`job ${jobId} is locked by ${job.worker}, not ${beat.worker}`, [{ field: "worker", message: `locked by ${job.worker}`, code: "NOT_LOCK_HOLDER" }])
            }
            const now = yield* nowMillis
            const rows = yield* sql<JobRow>`UPDATE jobs SET deadline = ${new Date(now + (beat.timeout ?? DEFAULT_LOCK_MS)).toISOString()},
                updated_at = ${new Date(now).toISOString()}
              WHERE tenant_id = ${principal.tenantId} AND id = ${jobId} AND state = 'ACTIVATED' AND worker IS NOT DISTINCT FROM ${job.worker}
              RETURNING *`.pipe(Effect.orDie)
            if (rows[0] === undefined) return yield* conflict(`job ${jobId} changed meanwhile; activate it again`)
            return toJob(rows[0])
          }),
        listJobs: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.type === undefined ? [] : [sql`type = ${filter.type}`]),
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.processInstanceId === undefined ? [] : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            const [rows, total] = yield* Effect.all([
              sql<JobRow>`SELECT * FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.page * page.size}`,
              sql<{ count: unknown }>`SELECT count(*) AS count FROM jobs WHERE ${where}`
            ])
            return pageOf(rows.map(toJob), page, countOf(total))
          }).pipe(Effect.orDie),
        listTasks: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.candidateGroup === undefined ? [] : [sql`candidate_groups @> jsonb_build_array(${filter.candidateGroup}::text)`]),
              ...(filter.assignee === undefined ? [] : [sql`assignee = ${filter.assignee}`]),
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.processInstanceId === undefined ? [] : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            const [rows, total] = yield* Effect.all([
              sql<TaskRow>`SELECT * FROM user_tasks WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.page * page.size}`,
              sql<{ count: unknown }>`SELECT count(*) AS count FROM user_tasks WHERE ${where}`
            ])
            return pageOf(rows.map(toTask), page, countOf(total))
          }).pipe(Effect.orDie),
        getTask: (tenantId, taskId) => Effect.map(taskById(tenantId, taskId), toTask),
        completeTask: (principal, taskId, variables) =>
          Effect.gen(function*() {
            const task = yield* taskById(principal.tenantId, taskId)
            if (task.state !== "CREATED") return yield* conflict(`task ${taskId} is ${task.state.toLowerCase()} and cannot be completed`)
            if (task.assignee !== null && task.assignee !== principal.sub && !principal.roles.includes("ADMIN")) {
              return yield* businessError(`task ${taskId} is assigned to ${task.assignee}; only the assignee (or an ADMIN) can complete it`, [
                { field: "assignee", message: `assigned to ${task.assignee}`, code: "NOT_ASSIGNEE" }
              ])
            }
            if (task.delegation_state === "PENDING") {
              // A delegated task completed by its delegate goes back to its owner (Flowable's resolve): the delegate's
              // variables are set on the instance, and the owner completes the task.
              if (Object.keys(variables).length > 0) yield* instances.command(principal, task.instance_id, { type: "SetVariables", variables })
              const now = new Date(yield* nowMillis).toISOString()
              yield* sql`UPDATE user_tasks SET assignee = owner, delegation_state = 'RESOLVED', updated_at = ${now}
                WHERE tenant_id = ${principal.tenantId} AND id = ${taskId}`.pipe(Effect.orDie)
              return toTask(yield* taskById(principal.tenantId, taskId))
            }
            yield* instances.command(principal, task.instance_id, { type: "CompleteUserTask", taskId, variables }, `complete-task:${taskId}`)
            return toTask(yield* taskById(principal.tenantId, taskId))
          }),
        listIncidents: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.processInstanceId === undefined ? [] : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            const [rows, total] = yield* Effect.all([
              sql<IncidentRow>`SELECT * FROM incidents WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.page * page.size}`,
              sql<{ count: unknown }>`SELECT count(*) AS count FROM incidents WHERE ${where}`
            ])
            return pageOf(rows.map(toIncident), page, countOf(total))
          }).pipe(Effect.orDie)
      }
    })
  )
}

// Jobs, human tasks and incidents as workers and people see them. Reads and job locking work on the projections;
// completing goes to the instance's entity with a command id derived from the job or task, so a retried completion
// is applied once.
import { Clock, Context, Effect, Layer, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { AppConfig } from "../config.ts"
import { pagedQuery } from "../persistence/PagedQuery.ts"
import { countOf, fromJson } from "../persistence/SqlValues.ts"
import {
  type BusinessError,
  businessError,
  type Conflict,
  conflict,
  type NotFound,
  notFound,
  type ValidationError
} from "../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../schema/Common.ts"
import type { JobId, TaskId } from "../schema/ResourceIds.ts"
import type { AdHocJobResult, Incident, Job, RetryPolicy, TaskSort, UserTask } from "../schema/Work.ts"
import { isUuid } from "./Ids.ts"
import { type IncidentRow, toIncident } from "./IncidentRows.ts"
import { type ActivationRequest, DEFAULT_LOCK_MS, type JobRow, makeJobActivation, toJob } from "./JobActivation.ts"
import { JobAvailability } from "./JobAvailability.ts"
import { ProcessInstances } from "./ProcessInstances.ts"
import { queryInstant } from "./QueryInstant.ts"
import { backoffFor } from "./RetryBackoff.ts"
import { taskOrder, type TaskRow, toTask } from "./TaskRows.ts"
import { nowMillis } from "./Time.ts"

type CompleteError = NotFound | Conflict | ValidationError | BusinessError

export type { ActivationRequest } from "./JobActivation.ts"

export interface WorkShape {
  readonly activateJobs: (tenantId: string, request: ActivationRequest) => Effect.Effect<ReadonlyArray<Job>>
  /** Pushes jobs of a type to one worker as they become available, each locked for it (GET /jobs/stream). */
  readonly streamJobs: (tenantId: string, request: ActivationRequest) => Stream.Stream<Job>
  readonly completeJob: (
    principal: Principal,
    jobId: JobId,
    variables: Readonly<Record<string, unknown>>,
    /** What the worker of an ad-hoc subprocess decided (its job only). */
    result?: typeof AdHocJobResult.Type | undefined
  ) => Effect.Effect<Job, CompleteError>
  readonly throwError: (
    principal: Principal,
    jobId: JobId,
    error: {
      readonly errorCode: string
      readonly errorMessage?: string | undefined
      readonly variables?: Readonly<Record<string, unknown>> | undefined
    }
  ) => Effect.Effect<Job, CompleteError>
  /** A technical failure: retries left -> activatable again after the backoff; none left -> an incident. */
  readonly failJob: (
    principal: Principal,
    jobId: JobId,
    failure: {
      readonly retries?: number | undefined
      readonly errorMessage?: string | undefined
      readonly retryBackOff?: number | undefined
      readonly variables?: Readonly<Record<string, unknown>> | undefined
    }
  ) => Effect.Effect<Job, CompleteError>
  /** New retries; a dead-lettered job's incident is resolved and the job is claimable again. */
  readonly updateRetries: (principal: Principal, jobId: JobId, retries: number) => Effect.Effect<Job, CompleteError>
  /** Extends the lock of an activated job. */
  readonly heartbeat: (
    principal: Principal,
    jobId: JobId,
    beat: { readonly worker?: string | undefined; readonly timeout?: number | undefined }
  ) => Effect.Effect<Job, NotFound | Conflict>
  readonly listJobs: (
    tenantId: string,
    filter: {
      readonly type?: string | undefined
      readonly state?: Job["state"] | undefined
      readonly processInstanceId?: string | undefined
    },
    page: PageRequest
  ) => Effect.Effect<PageOf<Job>>
  readonly listTasks: (
    tenantId: string,
    filter: {
      readonly candidateGroup?: string | undefined
      readonly assignee?: string | undefined
      readonly assigned?: boolean | undefined
      readonly state?: UserTask["state"] | undefined
      readonly processInstanceId?: string | undefined
      readonly dueBefore?: string | undefined
      readonly dueAfter?: string | undefined
      readonly followUpBefore?: string | undefined
      readonly followUpAfter?: string | undefined
      readonly sort?: TaskSort | undefined
    },
    page: PageRequest
  ) => Effect.Effect<PageOf<UserTask>, ValidationError>
  readonly completeTask: (
    principal: Principal,
    taskId: TaskId,
    variables: Readonly<Record<string, unknown>>
  ) => Effect.Effect<UserTask, CompleteError>
  readonly getTask: (tenantId: string, taskId: TaskId) => Effect.Effect<UserTask, NotFound>
  readonly listIncidents: (
    tenantId: string,
    filter: { readonly state?: Incident["state"] | undefined; readonly processInstanceId?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Incident>>
}

/** The engine's job result carries no `type` tag (only an ad-hoc subprocess's job takes one). */
const withoutType = ({ type: _, ...result }: typeof AdHocJobResult.Type) => result

export class Work extends Context.Service<Work, WorkShape>()("flowcore/Work") {
  static readonly layer = Layer.effect(
    Work,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      const config = yield* AppConfig
      const availability = yield* JobAvailability

      const jobById = (tenantId: string, id: JobId) =>
        Effect.gen(function*() {
          const rows = yield* sql<JobRow>`SELECT * FROM jobs WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          if (rows[0] === undefined) return yield* notFound("job", id)
          return rows[0]
        })

      const taskById = (tenantId: string, id: TaskId) =>
        Effect.gen(function*() {
          const rows = yield* sql<TaskRow>`SELECT * FROM user_tasks WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          if (rows[0] === undefined) return yield* notFound("task", id)
          return rows[0]
        })

      const { activateNow } = makeJobActivation(sql, instances, config)

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
        completeJob: (principal, jobId, variables, result) =>
          Effect.gen(function*() {
            const job = yield* jobById(principal.tenantId, jobId)
            if (job.state === "COMPLETED" || job.state === "CANCELED") {
              return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()} and cannot be completed`)
            }
            const reply = yield* instances.apply(
              principal,
              job.instance_id,
              {
                type: "CompleteJob",
                jobId,
                variables,
                ...(result === undefined ? {} : { result: withoutType(result) })
              },
              `complete-job:${jobId}`
            )
            // The completion changed the row's state and time only: no need to read it again.
            return reply.committedAt === undefined
              ? toJob(yield* jobById(principal.tenantId, jobId))
              : toJob({ ...job, state: "COMPLETED", updated_at: reply.committedAt })
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
            const policy = job.retry_policy === null || job.retry_policy === undefined
              ? null
              : fromJson<RetryPolicy>(job.retry_policy)
            const failures = policy === null || failure.retryBackOff !== undefined
              ? 0
              : countOf(
                yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM job_failures WHERE job_id = ${jobId}`.pipe(
                  Effect.orDie
                )
              )
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
            if (job.state !== "ACTIVATED") {
              return yield* conflict(
                `job ${jobId} is ${job.state.toLowerCase()}: only an activated job has a lock to extend`
              )
            }
            if (beat.worker !== undefined && beat.worker !== job.worker) {
              return yield* conflict(`job ${jobId} is locked by ${job.worker}, not ${beat.worker}`, [{
                field: "worker",
                message: `locked by ${job.worker}`,
                code: "NOT_LOCK_HOLDER"
              }])
            }
            const now = yield* nowMillis
            const rows = yield* sql<JobRow>`UPDATE jobs SET deadline = ${
              new Date(now + (beat.timeout ?? DEFAULT_LOCK_MS)).toISOString()
            },
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
              ...(filter.processInstanceId === undefined
                ? []
                : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            return yield* pagedQuery(sql, {
              select: sql`SELECT * FROM jobs`,
              countFrom: sql`jobs`,
              where,
              orderBy: sql`created_at DESC, id DESC`,
              page,
              toItem: toJob
            })
          }).pipe(Effect.orDie),
        listTasks: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const dueBefore = yield* queryInstant("dueBefore", filter.dueBefore)
            const dueAfter = yield* queryInstant("dueAfter", filter.dueAfter)
            const followUpBefore = yield* queryInstant("followUpBefore", filter.followUpBefore)
            const followUpAfter = yield* queryInstant("followUpAfter", filter.followUpAfter)
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(dueBefore === undefined ? [] : [sql`due_date < ${dueBefore}`]),
              ...(dueAfter === undefined ? [] : [sql`due_date >= ${dueAfter}`]),
              ...(followUpBefore === undefined ? [] : [sql`follow_up_date < ${followUpBefore}`]),
              ...(followUpAfter === undefined ? [] : [sql`follow_up_date >= ${followUpAfter}`]),
              ...(filter.candidateGroup === undefined
                ? []
                : [sql`candidate_groups @> jsonb_build_array(${filter.candidateGroup}::text)`]),
              ...(filter.assignee === undefined ? [] : [sql`assignee = ${filter.assignee}`]),
              ...(filter.assigned === undefined
                ? []
                : [filter.assigned ? sql`assignee IS NOT NULL` : sql`assignee IS NULL`]),
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.processInstanceId === undefined
                ? []
                : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            return yield* pagedQuery(sql, {
              select: sql`SELECT * FROM user_tasks`,
              countFrom: sql`user_tasks`,
              where,
              orderBy: sql.literal(taskOrder[filter.sort ?? "createdAt"]),
              page,
              toItem: toTask
            }).pipe(Effect.orDie)
          }),
        getTask: (tenantId, taskId) => Effect.map(taskById(tenantId, taskId), toTask),
        completeTask: (principal, taskId, variables) =>
          Effect.gen(function*() {
            const task = yield* taskById(principal.tenantId, taskId)
            if (task.state !== "CREATED") {
              return yield* conflict(`task ${taskId} is ${task.state.toLowerCase()} and cannot be completed`)
            }
            if (task.assignee !== null && task.assignee !== principal.sub && !principal.roles.includes("ADMIN")) {
              return yield* businessError(
                `task ${taskId} is assigned to ${task.assignee}; only the assignee (or an ADMIN) can complete it`,
                [
                  { field: "assignee", message: `assigned to ${task.assignee}`, code: "NOT_ASSIGNEE" }
                ]
              )
            }
            if (task.delegation_state === "PENDING") {
              // A delegated task completed by its delegate goes back to its owner (Flowable's resolve): the delegate's
              // variables are set on the instance, and the owner completes the task.
              if (Object.keys(variables).length > 0) {
                yield* instances.command(principal, task.instance_id, { type: "SetVariables", variables })
              }
              const now = new Date(yield* nowMillis).toISOString()
              yield* sql`UPDATE user_tasks SET assignee = owner, delegation_state = 'RESOLVED', updated_at = ${now}
                WHERE tenant_id = ${principal.tenantId} AND id = ${taskId}`.pipe(Effect.orDie)
              return toTask(yield* taskById(principal.tenantId, taskId))
            }
            yield* instances.command(
              principal,
              task.instance_id,
              { type: "CompleteUserTask", taskId, variables },
              // Each attempt after a completing listener's denial is a command of its own.
              Number(task.completion_denials ?? 0) === 0
                ? `complete-task:${taskId}`
                : `complete-task:${taskId}:${Number(task.completion_denials)}`
            )
            return toTask(yield* taskById(principal.tenantId, taskId))
          }),
        listIncidents: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.processInstanceId === undefined
                ? []
                : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
            ])
            return yield* pagedQuery(sql, {
              select: sql`SELECT * FROM incidents`,
              countFrom: sql`incidents`,
              where,
              orderBy: sql`created_at DESC, id DESC`,
              page,
              toItem: toIncident
            })
          }).pipe(Effect.orDie)
      }
    })
  )
}

// Jobs, human tasks and incidents as workers and people see them. Reads work on the projections of the request's
// tenant (CurrentTenant). A job is leased by one guarded UPDATE (JobActivation.ts) and its completion goes straight to
// the instance's entity (JobCompletion.ts); its other changes go to the job's entity (cluster/Job.ts) with the
// principal they are given (the connector runtime and batches send them outside a request), which forwards the
// outcome to the instance's entity. A task's completion is the caller's (CurrentPrincipal) and goes to the instance's
// entity. Command ids derived from the job or task make a retried completion apply once.
import { Clock, Context, Effect, Layer, Metric, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal, type Principal } from "../../auth/Principal.ts"
import { jobsActivated } from "../../observability/Metrics.ts"
import { CommitAudit, type CommitAuditShape } from "../../persistence/instances/CommitAudit.ts"
import { JobLeases } from "../../persistence/jobs/JobLeases.ts"
import { JobReads } from "../../persistence/jobs/JobReads.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import {
  businessError,
  type ClientError,
  type Conflict,
  conflict,
  type NotFound,
  notFound,
  type ValidationError
} from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { JobId, TaskId } from "../../schema/ResourceIds.ts"
import type { AdHocJobResult, Incident, Job, TaskSort, UserTask } from "../../schema/Work.ts"
import { isUuid } from "../Ids.ts"
import { toIncident } from "../instances/IncidentRows.ts"
import { ProcessInstances } from "../instances/ProcessInstances.ts"
import { queryInstant } from "../QueryInstant.ts"
import { nowMillis } from "../Time.ts"
import {
  type ActivationRequest,
  DEFAULT_LOCK_MS,
  DEFAULT_MAX_JOBS,
  makeJobActivation,
  requestedVariables,
  toJob
} from "./JobActivation.ts"
import { JobAvailability } from "./JobAvailability.ts"
import { makeJobCompletion } from "./JobCompletion.ts"
import { JobEntityClient, sendJobCommand } from "./JobEntityClient.ts"
import type { TakerOf } from "./JobTaker.ts"
import { itemsWithinBudget, pageWithinBudget } from "./ResponseBudget.ts"
import { taskOrder, type TaskRow, toTask } from "./TaskRows.ts"
import { makeVariablesNow } from "./VariablesNow.ts"

/**
 * The most jobs a job stream may be handed (committed leased to its worker) and not yet have written out: beyond it,
 * new jobs are announced and go to whoever looks first, so a stream whose client reads slowly does not hoard them.
 */
const STREAM_CAPACITY = 32

export type { ActivationRequest } from "./JobActivation.ts"

export interface WorkShape {
  readonly activateJobs: (request: ActivationRequest) => Effect.Effect<ReadonlyArray<Job>, never, CurrentTenant>
  /**
   * Pushes jobs of a type to one worker as they become available, each locked for it (GET /jobs/stream): the stream
   * of the request's tenant.
   */
  readonly streamJobs: (request: ActivationRequest) => Effect.Effect<Stream.Stream<Job>, never, CurrentTenant>
  readonly completeJob: (
    principal: Principal,
    jobId: JobId,
    variables: Readonly<Record<string, unknown>>,
    /** What the worker of an ad-hoc subprocess decided (its job only). */
    result?: typeof AdHocJobResult.Type | undefined
  ) => Effect.Effect<Job, ClientError>
  readonly throwError: (
    principal: Principal,
    jobId: JobId,
    error: {
      readonly errorCode: string
      readonly errorMessage?: string | undefined
      readonly variables?: Readonly<Record<string, unknown>> | undefined
    }
  ) => Effect.Effect<Job, ClientError>
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
  ) => Effect.Effect<Job, ClientError>
  /** New retries; a dead-lettered job's incident is resolved and the job is claimable again. */
  readonly updateRetries: (principal: Principal, jobId: JobId, retries: number) => Effect.Effect<Job, ClientError>
  /** Extends the lock of an activated job. */
  readonly heartbeat: (
    principal: Principal,
    jobId: JobId,
    beat: { readonly worker?: string | undefined; readonly timeout?: number | undefined }
  ) => Effect.Effect<Job, NotFound | Conflict>
  readonly listJobs: (
    filter: {
      readonly type?: string | undefined
      readonly state?: Job["state"] | undefined
      readonly processInstanceId?: string | undefined
    },
    page: PageRequest
  ) => Effect.Effect<PageOf<Job>, ValidationError, CurrentTenant>
  readonly listTasks: (
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
  ) => Effect.Effect<PageOf<UserTask>, ValidationError, CurrentTenant>
  /** Completed by the caller (CurrentPrincipal). */
  readonly completeTask: (
    taskId: TaskId,
    variables: Readonly<Record<string, unknown>>
  ) => Effect.Effect<UserTask, ClientError, CurrentTenant | CurrentPrincipal>
  readonly getTask: (taskId: TaskId) => Effect.Effect<UserTask, NotFound, CurrentTenant>
  readonly listIncidents: (
    filter: { readonly state?: Incident["state"] | undefined; readonly processInstanceId?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Incident>, never, CurrentTenant>
}

export class Work extends Context.Service<Work, WorkShape>()("flowcore/Work") {
  static readonly layer = Layer.effect(
    Work,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      const availability = yield* JobAvailability

      const taskById = Effect.fnUntraced(function*(id: TaskId) {
        const tenantId = yield* CurrentTenant
        const rows = yield* sql<TaskRow>`SELECT * FROM user_tasks WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
          Effect.orDie
        )
        if (rows[0] === undefined) return yield* notFound("task", id)
        return rows[0]
      })

      const jobs = yield* JobEntityClient
      const variablesNow = makeVariablesNow(sql)
      const leases = yield* JobLeases
      const { activateNow } = makeJobActivation(jobs, leases, variablesNow)
      const completion = makeJobCompletion(yield* JobReads, instances)
      /**
       * A waiting activation as a taker of pushed jobs (JobAvailability): its worker, lease length, and the request's
       * audit record (written by the commit that leases it a job, so the answer waits for no commit of its own).
       */
      const takerOf = (request: ActivationRequest, audit: CommitAuditShape | undefined): TakerOf => ({
        worker: request.worker,
        lockMillis: request.timeout ?? DEFAULT_LOCK_MS,
        audit
      })
      /** Jobs pushed to a waiting activation or stream, as the activation answers them. */
      const handedOver = (jobs: ReadonlyArray<Job>, request: ActivationRequest) =>
        Effect.as(
          Metric.update(jobsActivated, jobs.length),
          jobs.map((job) => requestedVariables(job, request.fetchVariable))
        )

      /**
       * One look for jobs, then a wait for jobs pushed or announced: undefined when woken with nothing handed over
       * (the activation looks again).
       */
      const activationRound = Effect.fnUntraced(function*(
        tenantId: string,
        request: ActivationRequest,
        audit: CommitAuditShape | undefined,
        until: number
      ) {
        // Listening before looking: a job announced while this activation looks still wakes it. The activation is a
        // taker: a job created meanwhile on this node may be committed leased to it and handed over (job push), with
        // no query of its own — while it waits, and while it looks within the room its look leaves.
        const limit = request.maxJobsToActivate ?? DEFAULT_MAX_JOBS
        const listener = yield* availability.listen(tenantId, request.type, takerOf(request, audit), limit)
        // A long poll of a type that a look found exhausted a moment ago, with none announced since, waits instead of
        // looking (EmptyLooks.ts): jobs created meanwhile on this node are pushed to it, announced ones wake it.
        const before = until - (yield* Clock.currentTimeMillis)
        let waitMillis = Math.min(before, listener.emptyFor)
        if (waitMillis <= 0) {
          const { exhausted, jobs } = yield* activateNow(tenantId, request, listener.budget, audit)
          yield* listener.looked(exhausted)
          const left = until - (yield* Clock.currentTimeMillis)
          if (jobs.length > 0 || left <= 0) {
            const pushed = yield* listener.collect
            return pushed.length === 0 ? jobs : [...jobs, ...(yield* handedOver(pushed, request))]
          }
          // Woken by new jobs of the type, and re-checking at least every second for retries and expired locks.
          waitMillis = Math.min(left, 1000)
        }
        const pushed = yield* listener.wait(waitMillis)
        return pushed === undefined ? undefined : yield* handedOver(pushed, request)
      })

      return {
        activateJobs: Effect.fnUntraced(function*(request) {
          const tenantId = yield* CurrentTenant
          const audit = yield* CommitAudit
          const until = (yield* Clock.currentTimeMillis) + (request.requestTimeout ?? 0)
          for (;;) {
            const found = yield* Effect.scoped(activationRound(tenantId, request, audit, until))
            if (found === undefined) continue
            // The jobs past the answer's budget for variables are given back, for the next activation to take.
            const fit = itemsWithinBudget(found)
            if (fit < found.length) {
              const nowText = new Date(yield* Clock.currentTimeMillis).toISOString()
              yield* leases.release(tenantId, request.worker, found.slice(fit).map((job) => job.id), nowText)
              yield* availability.announce(tenantId, [request.type])
            }
            return found.slice(0, fit)
          }
        }),
        streamJobs: (request) =>
          Effect.map(CurrentTenant, (tenantId) =>
            Stream.unwrap(Effect.gen(function*() {
              // The stream is one standing taker for its whole life: jobs created on this node are committed leased
              // to it while fewer than STREAM_CAPACITY of them wait to be written out. Only an announcement (a job
              // nobody on this node was handed) or a quiet second sends it looking in the database.
              const listener = yield* availability.listenStream(
                tenantId,
                request.type,
                takerOf(request, undefined),
                STREAM_CAPACITY
              )
              let look = true
              return Stream.fromEffectRepeat(Effect.gen(function*() {
                if (look) {
                  const { jobs } = yield* activateNow(tenantId, request)
                  if (jobs.length > 0) return jobs
                }
                const next = yield* listener.next(1000)
                look = next.look
                return next.jobs.length === 0 ? [] : yield* handedOver(next.jobs, request)
              })).pipe(Stream.flattenIterable)
            }))),
        completeJob: completion,
        throwError: (principal, jobId, error) =>
          sendJobCommand((commandId) =>
            jobs(jobId).ThrowError({ tenantId: principal.tenantId, actor: principal.sub, ...error, commandId })
          ),
        failJob: (principal, jobId, failure) =>
          sendJobCommand((commandId) =>
            jobs(jobId).Fail({ tenantId: principal.tenantId, actor: principal.sub, ...failure, commandId })
          ),
        updateRetries: (principal, jobId, retries) =>
          sendJobCommand((commandId) =>
            jobs(jobId).UpdateRetries({ tenantId: principal.tenantId, actor: principal.sub, commandId, retries })
          ),
        heartbeat: (principal, jobId, beat) =>
          sendJobCommand((commandId) =>
            jobs(jobId).Heartbeat({ tenantId: principal.tenantId, actor: principal.sub, ...beat, commandId })
          ).pipe(Effect.catchTags({ ValidationError: Effect.die, BusinessError: Effect.die })),
        listJobs: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.type === undefined ? [] : [sql`type = ${filter.type}`]),
            ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
            ...(filter.processInstanceId === undefined
              ? []
              : [isUuid(filter.processInstanceId) ? sql`instance_id = ${filter.processInstanceId}` : sql`false`])
          ])
          const found = yield* pagedQuery(sql, {
            select: sql`SELECT * FROM jobs`,
            countFrom: sql`jobs`,
            where,
            orderBy: sql`created_at DESC, id DESC`,
            page,
            toItem: toJob
          }).pipe(Effect.orDie)
          return { ...found, items: yield* pageWithinBudget(yield* variablesNow.jobs(found.items)) }
        }),
        listTasks: Effect.fnUntraced(function*(filter, page) {
          const dueBefore = yield* queryInstant("dueBefore", filter.dueBefore)
          const dueAfter = yield* queryInstant("dueAfter", filter.dueAfter)
          const followUpBefore = yield* queryInstant("followUpBefore", filter.followUpBefore)
          const followUpAfter = yield* queryInstant("followUpAfter", filter.followUpAfter)
          const where = yield* tenantWhere(sql, [
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
          const found = yield* pagedQuery(sql, {
            select: sql`SELECT * FROM user_tasks`,
            countFrom: sql`user_tasks`,
            where,
            orderBy: sql.literal(taskOrder[filter.sort ?? "createdAt"]),
            page,
            toItem: toTask
          }).pipe(Effect.orDie)
          return { ...found, items: yield* pageWithinBudget(yield* variablesNow.tasks(found.items)) }
        }),
        getTask: (taskId) => Effect.map(taskById(taskId), toTask),
        completeTask: Effect.fnUntraced(function*(taskId, variables) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          const task = yield* taskById(taskId)
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
                WHERE tenant_id = ${tenantId} AND id = ${taskId}`.pipe(Effect.orDie)
            return toTask(yield* taskById(taskId))
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
          return toTask(yield* taskById(taskId))
        }),
        listIncidents: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
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
        }, Effect.orDie)
      }
    })
  )
}

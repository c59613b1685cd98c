// Job activation: up to N jobs of a type picked and leased by one statement (persistence/jobs/JobLeases.ts; a lease that
// replaced one that ran out is recorded by the job's entity, which dead-letters the job at JOB_TIMEOUT_LIMIT), and
// hand each leased job the variables its instance holds now (engine/JobVariables.ts).
import { Effect, Metric } from "effect"
import { jobsActivated } from "../../observability/Metrics.ts"
import type { CommitAuditShape } from "../../persistence/instances/CommitAudit.ts"
import type { JobLeasesShape } from "../../persistence/jobs/JobLeases.ts"
import type { JobReadsShape } from "../../persistence/jobs/JobReads.ts"
import { fromJson } from "../../persistence/SqlValues.ts"
import { type NotFound, notFound } from "../../schema/ApiErrors.ts"
import { JobId, type ProcessInstanceId } from "../../schema/ResourceIds.ts"
import type { Job } from "../../schema/Work.ts"
import { resendInterrupted, sendToEntity } from "../EntitySend.ts"
import { isoFromDb, isoOrNull, nowMillis } from "../Time.ts"
import type { JobClient } from "./JobEntityClient.ts"
import type { LookBudget } from "./LongPollListeners.ts"
import type { InstanceRead, VariablesNowShape } from "./VariablesNow.ts"

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
  /** The command that last wrote the row through the job's entity (actors/JobLive.ts), when one did. */
  readonly applied_command_id?: string | null
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

/** The tenant's job row (read with others: JobReads), or 404 when the tenant has no such job. */
export const readJobRow = (reads: JobReadsShape, tenantId: string, jobId: string): Effect.Effect<JobRow, NotFound> =>
  Effect.flatMap(
    reads.read(tenantId, jobId),
    (found) => found === undefined ? Effect.fail(notFound("job", jobId)) : Effect.succeed(found as unknown as JobRow)
  )

/** The job with only the variables the worker asked for (`fetchVariable`), or all of them. */
export const requestedVariables = (job: Job, only: ReadonlyArray<string> | undefined): Job =>
  only === undefined
    ? job
    : { ...job, variables: Object.fromEntries(Object.entries(job.variables).filter(([name]) => only.includes(name))) }

export interface ActivationRequest {
  readonly type: string
  readonly worker: string
  readonly maxJobsToActivate?: number | undefined
  readonly timeout?: number | undefined
  readonly fetchVariable?: ReadonlyArray<string> | undefined
  /** Long polling: with nothing available, wait up to this many ms for a job. */
  readonly requestTimeout?: number | undefined
}

type LeasedRow = JobRow & { readonly previous_state: string; readonly previous_worker: string | null }

export const makeJobActivation = (jobs: JobClient, leases: JobLeasesShape, variables: VariablesNowShape) => {
  /**
   * The variables of just-activated jobs as their instances hold them now (only those asked for), from the instances
   * the lease read: as many jobs as fit an answer (VariablesNow.ts); the others are given back at once, for the next
   * activation to take.
   */
  const withVariablesNow = Effect.fnUntraced(function*(
    tenantId: string,
    request: ActivationRequest,
    nowText: string,
    leased: ReadonlyArray<Job>,
    read: ReadonlyMap<string, InstanceRead>
  ) {
    const worked = yield* variables.withVariablesNow(
      leased.map((job) => ({
        item: job,
        instanceId: job.processInstanceId,
        waited: { kind: "job", id: job.id } as const,
        recorded: job.variables
      })),
      (job, now) => requestedVariables({ ...job, variables: now }, request.fetchVariable),
      "evaluated",
      read
    )
    if (worked.rest.length > 0) {
      yield* leases.release(tenantId, request.worker, worked.rest.map((job) => job.id), nowText)
    }
    return worked
  })

  /**
   * The database leases the jobs (persistence/jobs/JobLeases.ts): one statement picks and leases them, walking past those
   * another activation is leasing. A lease that replaced one that ran out is recorded by the job's entity, which may
   * dead-letter the job instead: a look that lost jobs that way looks again, a few times at most.
   */
  const lease = Effect.fnUntraced(function*(
    tenantId: string,
    request: ActivationRequest,
    nowText: string,
    deadline: string,
    budget: LookBudget | undefined,
    audit: CommitAuditShape | undefined
  ) {
    const limit = request.maxJobsToActivate ?? DEFAULT_MAX_JOBS
    const leased: Array<Job> = []
    const read = new Map<string, InstanceRead>()
    // The last statement found fewer jobs than it was asked for: there were no more.
    let exhausted = false
    // Jobs pushed to the activation while it looks (its budget) count against its limit too.
    const left = () => limit - leased.length - (budget?.handed() ?? 0)
    for (let round = 0; round < 3 && left() > 0; round++) {
      // While the statement runs, jobs may be pushed to it only in the room its budget kept (the statement is asked
      // for the rest): the leased and the pushed together stay within its limit.
      const asked = budget === undefined ? left() : budget.picking(left())
      // The request's audit record is written by its first lease statement (taken once; CommitAudit.ts).
      const auditRow = audit?.take(tenantId, "", false, nowText)
      const rows = yield* leases.leaseNext({
        tenantId,
        jobType: request.type,
        worker: request.worker,
        deadline,
        now: nowText,
        limit: asked,
        audit: auditRow
      }).pipe(
        Effect.onExit((exit) => Effect.sync(() => auditRow !== undefined && audit!.settle(exit._tag === "Success")))
      )
      // While these are answered, jobs created meanwhile may be pushed to it, in the room they leave.
      budget?.holding(leased.length + rows.length)
      for (const row of rows) {
        if (row.instance_engine_state === null || row.instance_engine_state === undefined) continue
        read.set(String(row["instance_id"]), {
          id: String(row["instance_id"]),
          deployment_id: String(row.instance_deployment_id),
          engine_state: row.instance_engine_state
        })
      }
      const answers = yield* Effect.forEach(
        rows,
        (row) => afterLease(tenantId, request.worker, nowText, row as unknown as LeasedRow),
        { concurrency: "unbounded" }
      )
      const won = answers.filter((job): job is Job => job !== null)
      leased.push(...won)
      // Found as many as asked: the room kept for pushes, if none came, is asked for next (as are jobs dead-lettered).
      exhausted = rows.length < asked
      if (exhausted) break
    }
    return { leased, read, exhausted }
  })

  const notRecorded = (leased: LeasedRow, why: unknown) =>
    Effect.as(Effect.logWarning(`the expired lease of job ${leased.id} was not recorded`, why), toJob(leased))

  /** The leased job, or null when the lease replaced one that ran out too often (the job was dead-lettered). */
  const afterLease = (tenantId: string, worker: string, now: string, leased: LeasedRow): Effect.Effect<Job | null> =>
    leased.previous_state !== "ACTIVATED" ? Effect.succeed(toJob(leased)) : sendToEntity(resendInterrupted(
      jobs(JobId.make(leased.id)).LeaseExpired({
        tenantId,
        actor: worker,
        instanceId: leased.instance_id,
        previousWorker: leased.previous_worker,
        retries: Number(leased.retries),
        lockExpiries: Number(leased.lock_expiries),
        now
      })
    )).pipe(
      Effect.map((deadLettered) => (deadLettered ? null : toJob(leased))),
      // The lease stands (the database took it); only the record of the one that ran out is missing. (An interrupted
      // activation stays interrupted.)
      Effect.catch((error) => notRecorded(leased, error)),
      Effect.catchDefect((defect) => notRecorded(leased, defect))
    )

  /**
   * `budget`: a long poll's, when jobs may be pushed to it while it looks (LongPollListeners.ts); `audit`: the
   * request's audit record, for the lease statement to write.
   */
  const activateNow = Effect.fnUntraced(function*(
    tenantId: string,
    request: ActivationRequest,
    budget?: LookBudget,
    audit?: CommitAuditShape
  ) {
    const now = yield* nowMillis
    const nowText = new Date(now).toISOString()
    const deadline = new Date(now + (request.timeout ?? DEFAULT_LOCK_MS)).toISOString()
    const { exhausted, leased, read } = yield* lease(tenantId, request, nowText, deadline, budget, audit).pipe(
      Effect.ensuring(Effect.sync(() => budget?.picking(0)))
    )
    const locked = leased.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    const { items: jobs, rest } = yield* withVariablesNow(tenantId, request, nowText, locked, read)
    if (jobs.length > 0) yield* Metric.update(jobsActivated, jobs.length)
    // Jobs given back are still there: the type is not exhausted.
    return { jobs, exhausted: exhausted && rest.length === 0 }
  })

  return { activateNow }
}

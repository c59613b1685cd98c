// Job activation: find up to N jobs of a type that may be leased, lease them with one guarded UPDATE (a lease that
// replaced one that ran out is recorded by the job's entity, which dead-letters the job at JOB_TIMEOUT_LIMIT), and
// hand each leased job the variables its instance holds now (engine/JobVariables.ts).
import { Effect, Metric, Semaphore } from "effect"
import type { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { jobVariablesNow } from "../engine/JobVariables.ts"
import { jobsActivated } from "../observability/Metrics.ts"
import type { JobLeasesShape } from "../persistence/JobLeases.ts"
import type { JobReadsShape } from "../persistence/JobReads.ts"
import { fromJson, pgArray } from "../persistence/SqlValues.ts"
import { type NotFound, notFound } from "../schema/ApiErrors.ts"
import { JobId, type ProcessInstanceId } from "../schema/ResourceIds.ts"
import type { Job } from "../schema/Work.ts"
import { sendToEntity } from "./EntitySend.ts"
import type { JobClient } from "./JobEntityClient.ts"
import type { LookBudget } from "./LongPollListeners.ts"
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

export const makeJobActivation = (sql: SqlClient.SqlClient, jobs: JobClient, leases: JobLeasesShape) => {
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
  const withVariablesNow = Effect.fnUntraced(function*(jobs: ReadonlyArray<Job>) {
    if (jobs.length === 0) return jobs
    const instanceIds = [...new Set(jobs.map((job) => job.processInstanceId))]
    const rows = yield* sql<
      { id: string; deployment_id: string; engine_state: unknown }
    >`SELECT id, deployment_id, engine_state FROM process_instances
        WHERE id = ANY(${pgArray(instanceIds)}::uuid[])`.pipe(
      Effect.orDie
    )
    // Graphs are read only for deployments not seen before (each is immutable).
    const unseen = [...new Set(rows.map((row) => row.deployment_id))].filter((id) => !graphs.has(id))
    if (unseen.length > 0) {
      const deployments = yield* sql<{ id: string; graph: unknown }>`SELECT id, graph FROM deployments
          WHERE id = ANY(${pgArray(unseen)}::uuid[])`.pipe(Effect.orDie)
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

  // Jobs this node is leasing right now: a concurrent activation here does not pick them again.
  const leasing = new Set<string>()
  const pickers = new Map<string, Semaphore.Semaphore>()
  const pickerOf = (tenantId: string, type: string) => {
    const key = `${tenantId}\u0000${type}`
    let picker = pickers.get(key)
    if (picker === undefined) {
      if (pickers.size >= 10_000) pickers.clear()
      picker = Semaphore.makeUnsafe(1)
      pickers.set(key, picker)
    }
    return picker
  }

  /** Up to `limit` jobs that may be leased now: leases that ran out first (by deadline), then the oldest waiting. */
  const candidates = (tenantId: string, type: string, nowText: string, limit: number) => {
    const notLeasing = leasing.size === 0 ? sql`true` : sql`NOT (j.id = ANY(${pgArray([...leasing])}::uuid[]))`
    // The two kinds are picked apart so each walks its own index in order and stops at the limit: the cost follows
    // the jobs handed out, not the backlog or the jobs in flight. Jobs of suspended instances wait.
    return sql<{ id: string }>`SELECT id FROM (
        (SELECT j.id, j.created_at FROM jobs j
          WHERE j.tenant_id = ${tenantId} AND j.type = ${type} AND j.state = 'ACTIVATED' AND j.deadline < ${nowText}
            AND ${notLeasing}
            AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
          ORDER BY j.deadline LIMIT ${limit})
        UNION ALL
        (SELECT j.id, j.created_at FROM jobs j
          WHERE j.tenant_id = ${tenantId} AND j.type = ${type} AND j.state = 'ACTIVATABLE'
            AND (j.deadline IS NULL OR j.deadline <= ${nowText}) AND ${notLeasing}
            AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
          ORDER BY j.created_at, j.id LIMIT ${limit})) picked
      ORDER BY created_at, id LIMIT ${limit}`.pipe(Effect.orDie)
  }

  /**
   * The database decides whether each candidate is leased: the UPDATE's guard (persistence/JobLeases.ts) takes it
   * only if it is still free, or its lease ran out, and its instance active; another node's worker may have taken it
   * meanwhile, or the instance closed it. A round that lost jobs that way looks again, a few times at most. A lease
   * that replaced one that ran out is recorded by the job's entity, which may dead-letter the job instead.
   */
  const lease = Effect.fnUntraced(function*(
    tenantId: string,
    request: ActivationRequest,
    nowText: string,
    deadline: string,
    budget: LookBudget | undefined
  ) {
    const limit = request.maxJobsToActivate ?? DEFAULT_MAX_JOBS
    const leased: Array<Job> = []
    // Jobs pushed to the activation while it looks (its budget) count against its limit too.
    const left = () => limit - leased.length - (budget?.handed() ?? 0)
    for (let round = 0; round < 3 && left() > 0; round++) {
      // Picked one activation at a time per job type on this node, and marked before the next one looks: two
      // workers polling here never ask for the same jobs.
      const ids = yield* pickerOf(tenantId, request.type).withPermits(1)(
        // Suspended: the query must leave out the jobs marked while it waited for its turn.
        Effect.map(
          // No job is pushed to it while it picks: the picked and the pushed together stay within its limit.
          Effect.suspend(() => {
            budget?.picking()
            return candidates(tenantId, request.type, nowText, left())
          }),
          (found) => {
            const ids = found.map((row) => row.id)
            for (const id of ids) leasing.add(id)
            // While these are leased, jobs created meanwhile may be pushed to it, in the room they leave.
            budget?.holding(leased.length + ids.length)
            return ids
          }
        )
      )
      if (ids.length === 0) break
      const answers = yield* Effect.forEach(
        ids,
        (id) =>
          Effect.flatMap(
            leases.lease({ jobId: id, tenantId, worker: request.worker, deadline, now: nowText }),
            (row) =>
              row === undefined
                ? Effect.succeed(null)
                : afterLease(tenantId, request.worker, nowText, row as unknown as LeasedRow)
          ),
        { concurrency: "unbounded" }
      ).pipe(Effect.ensuring(Effect.sync(() => ids.forEach((id) => leasing.delete(id)))))
      const won = answers.filter((job): job is Job => job !== null)
      leased.push(...won)
      if (won.length === ids.length) break
    }
    return leased
  })

  const notRecorded = (leased: LeasedRow, why: unknown) =>
    Effect.as(Effect.logWarning(`the expired lease of job ${leased.id} was not recorded`, why), toJob(leased))

  /** The leased job, or null when the lease replaced one that ran out too often (the job was dead-lettered). */
  const afterLease = (tenantId: string, worker: string, now: string, leased: LeasedRow): Effect.Effect<Job | null> =>
    leased.previous_state !== "ACTIVATED" ? Effect.succeed(toJob(leased)) : sendToEntity(
      jobs(JobId.make(leased.id)).LeaseExpired({
        tenantId,
        actor: worker,
        instanceId: leased.instance_id,
        previousWorker: leased.previous_worker,
        retries: Number(leased.retries),
        lockExpiries: Number(leased.lock_expiries),
        now
      })
    ).pipe(
      Effect.map((deadLettered) => (deadLettered ? null : toJob(leased))),
      // The lease stands (the database took it); only the record of the one that ran out is missing. (An interrupted
      // activation stays interrupted.)
      Effect.catch((error) => notRecorded(leased, error)),
      Effect.catchDefect((defect) => notRecorded(leased, defect))
    )

  /** `budget`: a long poll's, when jobs may be pushed to it while it looks (LongPollListeners.ts). */
  const activateNow = Effect.fnUntraced(function*(
    tenantId: string,
    request: ActivationRequest,
    budget?: LookBudget
  ) {
    const now = yield* nowMillis
    const nowText = new Date(now).toISOString()
    const deadline = new Date(now + (request.timeout ?? DEFAULT_LOCK_MS)).toISOString()
    const locked = (yield* lease(tenantId, request, nowText, deadline, budget).pipe(
      Effect.ensuring(Effect.sync(() => budget?.picking()))
    ))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    const jobs = yield* withVariablesNow(locked)
    if (jobs.length > 0) yield* Metric.update(jobsActivated, jobs.length)
    return jobs.map((job) => requestedVariables(job, request.fetchVariable))
  })

  return { activateNow }
}

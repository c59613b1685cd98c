// The Job entity (protocol in Job.ts): each message reads the job's row, decides, and writes the job's columns or
// forwards the outcome to the instance's entity (with the job's command ids). It keeps nothing in memory between
// messages: the row is the truth (the instance's commits close it), and the entity is what puts this job's messages
// in one line. Leases and completions do not pass through it (see Job.ts).
// A message may arrive twice: its sender sends it again when the first send's handling was interrupted (the job's
// shard moved to another node under it), not knowing whether it took effect. Each carries its sender's command id; a
// command applied before is answered as applied (`appliedBefore`), the rest applies once: forwarded to the instance
// with that id, which the instance records, or written to the row with it (jobs.applied_command_id).
import { Duration, Effect, Layer } from "effect"
import { Entity } from "effect/cluster"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { JobEntity } from "../cluster/Job.ts"
import { AppConfig } from "../config.ts"
import { InstanceStore } from "../persistence/instances/InstanceStore.ts"
import { JobReads } from "../persistence/jobs/JobReads.ts"
import { countOf, fromJson, toJson } from "../persistence/SqlValues.ts"
import { Conflict, conflict, type NotFound } from "../schema/ApiErrors.ts"
import { ProcessInstanceId } from "../schema/ResourceIds.ts"
import type { Job, RetryPolicy } from "../schema/Work.ts"
import { ProcessInstances } from "../services/instances/ProcessInstances.ts"
import { isoOrNull, nowMillis } from "../services/Time.ts"
import { DEFAULT_LOCK_MS, type JobRow, readJobRow, toJob } from "../services/work/JobActivation.ts"
import { JobAvailability } from "../services/work/JobAvailability.ts"
import { backoffFor } from "../services/work/RetryBackoff.ts"

const behaviour = Effect.gen(function*() {
  const jobId = (yield* Entity.CurrentAddress).entityId
  const sql = yield* SqlClient.SqlClient
  const instances = yield* ProcessInstances
  const config = yield* AppConfig
  const reads = yield* JobReads
  const availability = yield* JobAvailability
  const store = yield* InstanceStore

  const asPrincipal = (payload: { readonly tenantId: string; readonly actor: string }): Principal => ({
    sub: payload.actor,
    tenantId: payload.tenantId,
    roles: [],
    source: "local"
  })

  const row = (tenantId: string) => readJobRow(reads, tenantId, jobId)

  /**
   * Whether the command was applied before: written to the row with its id, or forwarded to the instance, which
   * recorded its id. Asked only when the job is no longer in a state the command applies to.
   */
  const appliedBefore = (job: JobRow, commandId: string): Effect.Effect<boolean> =>
    job.applied_command_id === commandId
      ? Effect.succeed(true)
      : Effect.map(store.recordedReply(job.instance_id, commandId), (reply) => reply !== undefined)

  /**
   * What `check` finds when it passes. When it refuses with a conflict (the job is past the state the command applies
   * to), undefined if the command was applied before — a resend whose first send took effect, answered as applied —
   * else the conflict.
   */
  const unlessApplied =
    (payload: { readonly tenantId: string; readonly commandId: string }) =>
    <A, E>(check: Effect.Effect<A, E>): Effect.Effect<A | undefined, E | NotFound> =>
      Effect.catch(check, (refused): Effect.Effect<undefined, E | NotFound> =>
        refused instanceof Conflict
          ? Effect.flatMap(row(payload.tenantId), (job) =>
            Effect.flatMap(
              appliedBefore(job, payload.commandId),
              (applied) => applied ? Effect.succeed(undefined) : Effect.fail(refused)
            ))
          : Effect.fail(refused))

  const open = (tenantId: string, doing: string) =>
    Effect.flatMap(row(tenantId), (job) =>
      job.state === "ACTIVATABLE" || job.state === "ACTIVATED"
        ? Effect.succeed(job)
        : Effect.fail(conflict(`job ${jobId} is ${job.state.toLowerCase()}: ${doing}`)))

  /** A job whose retries may change: open, or failed into an incident. */
  const managed = (tenantId: string, doing: string) =>
    Effect.flatMap(
      row(tenantId),
      (job) =>
        job.state === "ACTIVATABLE" || job.state === "ACTIVATED" || job.state === "FAILED"
          ? Effect.succeed(job)
          : Effect.fail(conflict(`job ${jobId} is ${job.state.toLowerCase()}: ${doing}`))
    )

  /** A job waiting for its retry: activatable, with its backoff's end ahead. */
  const pendingRetry = Effect.fnUntraced(function*(tenantId: string) {
    const job = yield* managed(tenantId, "it has no retries to manage")
    const deadline = isoOrNull(job.deadline)
    if (job.state !== "ACTIVATABLE" || deadline === null || Date.parse(deadline) <= (yield* nowMillis)) {
      return yield* conflict(`job ${jobId} has no pending retry`, [{
        field: "id",
        message: "no retry is waiting",
        code: "NO_PENDING_RETRY"
      }])
    }
    return job
  })

  const reread = (tenantId: string) => Effect.map(row(tenantId), toJob)
  /**
   * A job that may be activated again right now (failed with retries left and no backoff, or given retries again) is
   * announced, as a new one is: waiting workers take it now, not at their next look (and a long poll that skips its
   * look after an empty one, services/work/EmptyLooks.ts, is not kept from it).
   */
  const announcedIfActivatable = (tenantId: string, job: Job) =>
    job.state === "ACTIVATABLE" && job.deadline === null
      ? Effect.as(availability.announce(tenantId, [job.type]), job)
      : Effect.succeed(job)

  const fail = Effect.fnUntraced(function*(
    principal: Principal,
    job: JobRow,
    commandId: string,
    failure: {
      readonly retries?: number | undefined
      readonly errorMessage?: string | undefined
      readonly retryBackOff?: number | undefined
      readonly variables?: Readonly<Record<string, unknown>> | undefined
    }
  ) {
    // Without an explicit count, one retry is used up (Camunda 7's habit; Zeebe workers send the count).
    const retries = Math.max(0, failure.retries ?? Number(job.retries) - 1)
    const now = yield* nowMillis
    // Without a backoff from the worker, the job's retry policy decides (attempt = failures so far + 1).
    const policy = job.retry_policy === null || job.retry_policy === undefined
      ? null
      : fromJson<RetryPolicy>(job.retry_policy)
    const failures = policy === null || failure.retryBackOff !== undefined ? 0 : countOf(
      yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM job_failures WHERE job_id = ${jobId}`.pipe(
        Effect.orDie
      )
    )
    const backOff = failure.retryBackOff ?? (policy === null ? 0 : backoffFor(policy, failures + 1))
    yield* instances.apply(principal, job.instance_id, {
      type: "FailJob",
      jobId,
      retries,
      errorMessage: failure.errorMessage ?? "",
      retryAt: backOff > 0 && retries > 0 ? new Date(now + backOff).toISOString() : null,
      ...(failure.variables === undefined ? {} : { variables: failure.variables })
    }, commandId)
  })

  const updateRetries = (principal: Principal, job: JobRow, commandId: string, retries: number) =>
    Effect.asVoid(
      instances.apply(principal, job.instance_id, { type: "UpdateJobRetries", jobId, retries }, commandId)
    )

  /**
   * The lease the job held ran out: its worker crashed or hung. Each expiry is recorded in the job's retry history;
   * at JOB_TIMEOUT_LIMIT the job is not handed out again but fails into a JOB_TIMEOUTS_EXCEEDED incident naming the
   * count and the workers. Answers whether the job was dead-lettered. The expiry numbered `lockExpiries` is recorded
   * once: sent again, the message finds its row there (and the dead-letter's command id applied).
   */
  const recordExpiry = Effect.fnUntraced(function*(
    tenantId: string,
    leased: {
      readonly instanceId: ProcessInstanceId
      readonly previousWorker: string | null
      readonly retries: number
      readonly lockExpiries: number
    },
    now: string
  ) {
    yield* sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at, kind)
        SELECT ${tenantId}, ${jobId}, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${jobId}), ${leased.previousWorker},
          ${`the lock of worker ${
      leased.previousWorker ?? "?"
    } ran out before it completed, failed or extended the job`},
          ${leased.retries}, NULL, ${now}, 'LOCK_EXPIRED'
        WHERE (SELECT count(*) FROM job_failures WHERE job_id = ${jobId} AND kind = 'LOCK_EXPIRED') < ${leased.lockExpiries}`
      .pipe(Effect.orDie)
    if (leased.lockExpiries < config.jobTimeoutLimit) return false
    const workers = yield* sql<{ worker: string | null }>`SELECT DISTINCT worker FROM job_failures
        WHERE job_id = ${jobId} AND kind = 'LOCK_EXPIRED' ORDER BY worker`.pipe(Effect.orDie)
    const names = workers.map((w) => w.worker ?? "?").join(", ")
    // Not handed to the worker asking now: the failure is the system's.
    yield* sql`UPDATE jobs SET worker = NULL WHERE id = ${jobId}`.pipe(Effect.orDie)
    const system: Principal = { sub: "system:job-timeouts", tenantId, roles: [], source: "local" }
    yield* instances.apply(system, leased.instanceId, {
      type: "FailJob",
      jobId,
      retries: 0,
      errorMessage:
        `job ${jobId} timed out ${leased.lockExpiries} times (workers: ${names}); its lock ran out each time`,
      retryAt: null,
      incidentType: "JOB_TIMEOUTS_EXCEEDED"
    }, `job-timeouts:${jobId}:${leased.lockExpiries}`).pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning(`job ${jobId} could not be dead-lettered after its timeouts`, cause)
      )
    )
    return true
  })

  /** Extends an activated job's lock: its holder's, when the worker is named. */
  const extendLock = Effect.fnUntraced(function*(payload: {
    readonly tenantId: string
    readonly commandId: string
    readonly worker?: string | undefined
    readonly timeout?: number | undefined
  }) {
    const job = yield* row(payload.tenantId)
    if (job.state !== "ACTIVATED") {
      return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()}: only an activated job has a lock to extend`)
    }
    if (payload.worker !== undefined && payload.worker !== job.worker) {
      return yield* conflict(`job ${jobId} is locked by ${job.worker}, not ${payload.worker}`, [{
        field: "worker",
        message: `locked by ${job.worker}`,
        code: "NOT_LOCK_HOLDER"
      }])
    }
    const now = yield* nowMillis
    const [extended] = yield* sql<JobRow>`UPDATE jobs
          SET deadline = ${new Date(now + (payload.timeout ?? DEFAULT_LOCK_MS)).toISOString()},
            updated_at = ${new Date(now).toISOString()}, applied_command_id = ${payload.commandId}
          WHERE tenant_id = ${payload.tenantId} AND id = ${jobId} AND state = 'ACTIVATED'
            AND worker IS NOT DISTINCT FROM ${job.worker}
          RETURNING *`.pipe(Effect.orDie)
    // The instance closed the job meanwhile (canceled, say).
    if (extended === undefined) return yield* conflict(`job ${jobId} changed meanwhile; activate it again`)
    return toJob(extended)
  })

  return JobEntity.of({
    LeaseExpired: ({ payload }) =>
      recordExpiry(payload.tenantId, {
        instanceId: ProcessInstanceId.make(payload.instanceId),
        previousWorker: payload.previousWorker,
        retries: payload.retries,
        lockExpiries: payload.lockExpiries
      }, payload.now),
    ThrowError: Effect.fnUntraced(function*({ payload }) {
      const job = yield* open(payload.tenantId, "no error can be thrown for it").pipe(unlessApplied(payload))
      if (job !== undefined) {
        yield* instances.apply(asPrincipal(payload), job.instance_id, {
          type: "ThrowError",
          jobId,
          errorCode: payload.errorCode,
          errorMessage: payload.errorMessage ?? "",
          variables: payload.variables ?? {}
        }, payload.commandId)
      }
      return yield* reread(payload.tenantId)
    }),
    Fail: Effect.fnUntraced(function*({ payload }) {
      const job = yield* open(payload.tenantId, "only an open job can fail").pipe(unlessApplied(payload))
      if (job !== undefined) yield* fail(asPrincipal(payload), job, payload.commandId, payload)
      return yield* announcedIfActivatable(payload.tenantId, yield* reread(payload.tenantId))
    }),
    UpdateRetries: Effect.fnUntraced(function*({ payload }) {
      const job = yield* managed(payload.tenantId, "its retries cannot change").pipe(unlessApplied(payload))
      if (job !== undefined) yield* updateRetries(asPrincipal(payload), job, payload.commandId, payload.retries)
      return yield* announcedIfActivatable(payload.tenantId, yield* reread(payload.tenantId))
    }),
    Heartbeat: Effect.fnUntraced(function*({ payload }) {
      const extended = yield* extendLock(payload).pipe(unlessApplied(payload))
      return extended ?? (yield* reread(payload.tenantId))
    }),
    SetRetryPolicy: Effect.fnUntraced(function*({ payload }) {
      const job = yield* managed(payload.tenantId, "it has no retries to manage").pipe(unlessApplied(payload))
      if (job === undefined) return
      yield* sql`UPDATE jobs SET retry_policy = ${
        toJson(payload.policy)
      }::jsonb, applied_command_id = ${payload.commandId}
          WHERE tenant_id = ${payload.tenantId} AND id = ${jobId}`.pipe(Effect.orDie)
      if (payload.retries !== undefined) {
        yield* updateRetries(asPrincipal(payload), job, payload.commandId, payload.retries)
      }
    }),
    RetryNow: Effect.fnUntraced(function*({ payload }) {
      const job = yield* pendingRetry(payload.tenantId).pipe(unlessApplied(payload))
      if (job === undefined) return
      yield* sql`UPDATE jobs SET deadline = NULL, applied_command_id = ${payload.commandId}
          WHERE tenant_id = ${payload.tenantId} AND id = ${jobId} AND state = 'ACTIVATABLE'`.pipe(Effect.orDie)
      // Workers long-polling or streaming the type take it now, not at their next look.
      yield* availability.announce(payload.tenantId, [job.type])
    }),
    CancelRetry: Effect.fnUntraced(function*({ payload }) {
      const job = yield* pendingRetry(payload.tenantId).pipe(unlessApplied(payload))
      if (job === undefined) return
      // No more attempts: the job is dead-lettered into an incident, as when its retries run out.
      yield* fail(asPrincipal(payload), job, payload.commandId, {
        retries: 0,
        errorMessage: `pending retry canceled by ${payload.actor}`
      })
    })
  })
})

/**
 * Idle job entities go after two seconds: they hold nothing but their place in line, and each resident entity counts
 * against the node's MAX_RESIDENT_ENTITIES.
 * A defect in a handler (a bug, the database refusing a value, the instance's INTERNAL rejection) fails only its own
 * message, which answers the caller with a 500: by default the cluster restarts the entity and hands it the same
 * message again, for ever (a deterministic defect never passes), while the caller waits without an answer. Nothing is
 * lost by not replaying: each message is applied once by its command id, and its sender may send it again.
 */
export const JobLive = Layer.unwrap(
  Effect.map(
    AppConfig,
    (config) =>
      JobEntity.toLayer(behaviour, {
        maxIdleTime: Duration.seconds(Math.min(config.entityIdleSeconds, 2)),
        disableFatalDefects: true
      })
  )
)

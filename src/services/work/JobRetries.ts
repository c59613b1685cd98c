// A job's retries as operators see them: its retry policy (the backoff after a failure), the pending retry, the
// record of failed attempts; and the levers — retry now (skip the backoff) or cancel the retry (an incident instead),
// pulled by the job's entity (actors/JobLive.ts). Jobs of the request's tenant (CurrentTenant); the levers are pulled by
// the caller (CurrentPrincipal).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { fromJson } from "../../persistence/SqlValues.ts"
import { type ClientError, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { JobId } from "../../schema/ResourceIds.ts"
import type { Job, RetryAttempt, RetryPolicy, RetryState } from "../../schema/Work.ts"
import { isoFromDb, isoOrNull, nowMillis } from "../Time.ts"
import { JobEntityClient, sendJobCommand } from "./JobEntityClient.ts"

interface RetryRow {
  readonly id: string
  readonly state: Job["state"]
  readonly retries: number
  readonly deadline: unknown
  readonly retry_policy: unknown
  readonly attempts: unknown
}

type Caller = CurrentTenant | CurrentPrincipal

export interface JobRetriesShape {
  readonly state: (jobId: JobId) => Effect.Effect<typeof RetryState.Type, NotFound, CurrentTenant>
  readonly setPolicy: (
    jobId: JobId,
    input: { readonly policy: RetryPolicy; readonly retries?: number | undefined }
  ) => Effect.Effect<typeof RetryState.Type, ClientError, Caller>
  readonly retryNow: (jobId: JobId) => Effect.Effect<typeof RetryState.Type, ClientError, Caller>
  readonly cancelRetry: (jobId: JobId) => Effect.Effect<typeof RetryState.Type, ClientError, Caller>
  readonly history: (jobId: JobId) => Effect.Effect<ReadonlyArray<typeof RetryAttempt.Type>, NotFound, CurrentTenant>
}

export class JobRetries extends Context.Service<JobRetries, JobRetriesShape>()("flowcore/JobRetries") {
  static readonly layer = Layer.effect(
    JobRetries,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const jobs = yield* JobEntityClient

      const state = Effect.fnUntraced(function*(jobId: JobId) {
        const tenantId = yield* CurrentTenant
        const [row] = yield* sql<RetryRow>`SELECT id, state, retries, deadline, retry_policy,
              (SELECT count(*) FROM job_failures f WHERE f.job_id = j.id) AS attempts
            FROM jobs j WHERE tenant_id = ${tenantId} AND id = ${jobId}`.pipe(Effect.orDie)
        if (row === undefined) return yield* notFound("job", jobId)
        const now = yield* nowMillis
        // An activatable job whose deadline lies ahead waits for its retry (the backoff after a failure).
        const deadline = isoOrNull(row.deadline)
        const waiting = row.state === "ACTIVATABLE" && deadline !== null && Date.parse(deadline) > now
        return {
          jobId: row.id,
          state: row.state,
          retries: Number(row.retries),
          policy: row.retry_policy === null ? null : fromJson<RetryPolicy>(row.retry_policy),
          attempts: Number(row.attempts),
          waiting,
          nextRetryAt: waiting ? deadline : null
        }
      })

      /** Who pulls a lever, as the job's entity takes it: the request's tenant and caller. */
      const caller = Effect.gen(function*() {
        return { tenantId: yield* CurrentTenant, actor: (yield* CurrentPrincipal).sub }
      })

      return {
        state,
        setPolicy: Effect.fnUntraced(function*(jobId, input) {
          const from = yield* caller
          yield* sendJobCommand((commandId) => jobs(jobId).SetRetryPolicy({ ...from, ...input, commandId }))
          return yield* state(jobId)
        }),
        retryNow: Effect.fnUntraced(function*(jobId) {
          const from = yield* caller
          yield* sendJobCommand((commandId) => jobs(jobId).RetryNow({ ...from, commandId }))
          return yield* state(jobId)
        }),
        cancelRetry: Effect.fnUntraced(function*(jobId) {
          const from = yield* caller
          yield* sendJobCommand((commandId) => jobs(jobId).CancelRetry({ ...from, commandId }))
          return yield* state(jobId)
        }),
        history: Effect.fnUntraced(function*(jobId) {
          yield* state(jobId)
          const rows = yield* sql<
            {
              attempt: number
              kind: "FAILED" | "LOCK_EXPIRED"
              worker: string | null
              error_message: string
              retries_left: number
              retry_at: unknown
              failed_at: unknown
            }
          >`SELECT
                attempt, kind, worker, error_message, retries_left, retry_at, failed_at FROM job_failures WHERE job_id = ${jobId} ORDER BY attempt`
            .pipe(Effect.orDie)
          return rows.map((row) => ({
            attempt: Number(row.attempt),
            kind: row.kind,
            worker: row.worker,
            errorMessage: row.error_message,
            retriesLeft: Number(row.retries_left),
            retryAt: isoOrNull(row.retry_at),
            failedAt: isoFromDb(row.failed_at)
          }))
        })
      }
    })
  )
}

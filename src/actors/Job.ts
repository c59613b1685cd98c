// The Job entity's protocol: one entity per job id, the only writer of that job's lease (who holds it, until when,
// how many leases ran out), its retry timing (backoff, retry now) and the one way its outcome (complete, fail, throw
// an error, new retries) reaches the instance. Messages for one job are handled one at a time, in order: a completion
// racing a lease that ran out, a retry-now or a heartbeat never interleave. The instance entity still owns the
// tokens; the job's entity forwards outcomes to it with the job's command ids, so a redelivery applies once.
import { Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { BusinessError, Conflict, NotFound, ValidationError } from "../schema/ApiErrors.ts"
import { Variables } from "../schema/Common.ts"
import { AdHocJobResult, Job, RetryPolicy } from "../schema/Work.ts"

/** What a job's entity answers instead: the API's own errors (404, 409, 400, 422). */
export const JobFailure = Schema.Union([NotFound, Conflict, ValidationError, BusinessError])
export type JobFailure = typeof JobFailure.Type

/** Who sends: the tenant the job must belong to (another tenant's job is not found) and the acting user. */
const caller = { tenantId: Schema.String, actor: Schema.String }

/**
 * Lease the job to a worker until `deadline`, if nobody holds it (or the holder's lease ran out) and its backoff is
 * over. The answer is the leased job, or null when it is not to be had (taken meanwhile, done, suspended, or
 * dead-lettered because its leases ran out too often).
 */
export const Lease = Rpc.make("Lease", {
  payload: { ...caller, worker: Schema.String, deadline: Schema.String, now: Schema.String },
  success: Schema.NullOr(Job),
  error: JobFailure
})

export const Complete = Rpc.make("Complete", {
  payload: { ...caller, variables: Variables, result: Schema.optional(AdHocJobResult) },
  success: Job,
  error: JobFailure
})

export const ThrowError = Rpc.make("ThrowError", {
  payload: {
    ...caller,
    errorCode: Schema.String,
    errorMessage: Schema.optional(Schema.String),
    variables: Schema.optional(Variables)
  },
  success: Job,
  error: JobFailure
})

export const Fail = Rpc.make("Fail", {
  payload: {
    ...caller,
    retries: Schema.optional(Schema.Int),
    errorMessage: Schema.optional(Schema.String),
    retryBackOff: Schema.optional(Schema.Int),
    variables: Schema.optional(Variables)
  },
  success: Job,
  error: JobFailure
})

export const UpdateRetries = Rpc.make("UpdateRetries", {
  payload: { ...caller, retries: Schema.Int },
  success: Job,
  error: JobFailure
})

/** Extends the lease of an activated job (only its holder's, when the worker is named). */
export const Heartbeat = Rpc.make("Heartbeat", {
  payload: { ...caller, worker: Schema.optional(Schema.String), timeout: Schema.optional(Schema.Int) },
  success: Job,
  error: JobFailure
})

export const SetRetryPolicy = Rpc.make("SetRetryPolicy", {
  payload: { ...caller, policy: RetryPolicy, retries: Schema.optional(Schema.Int) },
  error: JobFailure
})

/** Skips the backoff of a job waiting for its retry. */
export const RetryNow = Rpc.make("RetryNow", { payload: caller, error: JobFailure })

/** No more attempts for a job waiting for its retry: it fails into an incident. */
export const CancelRetry = Rpc.make("CancelRetry", { payload: caller, error: JobFailure })

export const JobEntity = Entity.make("Job", [
  Lease,
  Complete,
  ThrowError,
  Fail,
  UpdateRetries,
  Heartbeat,
  SetRetryPolicy,
  RetryNow,
  CancelRetry
])

// The Job entity's protocol: one entity per job id, the line in which that job's slower writes happen one at a time:
// the record of a lease that ran out (and the dead-letter at JOB_TIMEOUT_LIMIT), its retry timing (backoff, retry
// now), heartbeats, and the outcomes other than completion (fail, throw an error, new retries), which it forwards to
// the instance's entity with the sender's command id, so a message sent again applies once.
// The two hot writes do not pass through it (a message each, measured at ~0.25 ms of CPU per job under load): a lease is one guarded
// UPDATE that the database decides (services/work/JobActivation.ts, persistence/jobs/JobLeases.ts), and a completion goes
// straight to the instance's entity, whose engine refuses a job that is no longer open (services/work/JobCompletion.ts).
import { Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { BusinessError, Conflict, NotFound, ValidationError } from "../schema/ApiErrors.ts"
import { Variables } from "../schema/Common.ts"
import { Job, RetryPolicy } from "../schema/Work.ts"

/** What a job's entity answers instead: the API's own errors (404, 409, 400, 422). */
export const JobFailure = Schema.Union([NotFound, Conflict, ValidationError, BusinessError])
export type JobFailure = typeof JobFailure.Type

/** Who sends: the tenant the job must belong to (another tenant's job is not found) and the acting user. */
const caller = { tenantId: Schema.String, actor: Schema.String }

/**
 * A message that changes the job, with the id its sender made for it once: a resend (services/EntitySend.ts
 * resendInterrupted, when the first send's handling was interrupted) carries the same id, and a command applied
 * before answers as applied, not as a conflict with its own outcome (JobLive.ts `appliedBefore`).
 */
const command = { ...caller, commandId: Schema.String }

/**
 * The lease the job held ran out and another worker's lease replaced it (`previous*`: the row before that lease).
 * Records the expiry in the job's retry history; answers true when the job was dead-lettered instead (its leases ran
 * out JOB_TIMEOUT_LIMIT times), so it is not to be handed to the worker. `lockExpiries` (the job's count of expiries,
 * this one included) identifies it: sent again, it records nothing twice.
 */
export const LeaseExpired = Rpc.make("LeaseExpired", {
  payload: {
    ...caller,
    instanceId: Schema.String,
    previousWorker: Schema.NullOr(Schema.String),
    retries: Schema.Int,
    lockExpiries: Schema.Int,
    now: Schema.String
  },
  success: Schema.Boolean,
  error: JobFailure
})

export const ThrowError = Rpc.make("ThrowError", {
  payload: {
    ...command,
    errorCode: Schema.String,
    errorMessage: Schema.optional(Schema.String),
    variables: Schema.optional(Variables)
  },
  success: Job,
  error: JobFailure
})

export const Fail = Rpc.make("Fail", {
  payload: {
    ...command,
    retries: Schema.optional(Schema.Int),
    errorMessage: Schema.optional(Schema.String),
    retryBackOff: Schema.optional(Schema.Int),
    variables: Schema.optional(Variables)
  },
  success: Job,
  error: JobFailure
})

export const UpdateRetries = Rpc.make("UpdateRetries", {
  payload: { ...command, retries: Schema.Int },
  success: Job,
  error: JobFailure
})

/** Extends the lease of an activated job (only its holder's, when the worker is named). */
export const Heartbeat = Rpc.make("Heartbeat", {
  payload: { ...command, worker: Schema.optional(Schema.String), timeout: Schema.optional(Schema.Int) },
  success: Job,
  error: JobFailure
})

export const SetRetryPolicy = Rpc.make("SetRetryPolicy", {
  payload: { ...command, policy: RetryPolicy, retries: Schema.optional(Schema.Int) },
  error: JobFailure
})

/** Skips the backoff of a job waiting for its retry. */
export const RetryNow = Rpc.make("RetryNow", { payload: command, error: JobFailure })

/** No more attempts for a job waiting for its retry: it fails into an incident. */
export const CancelRetry = Rpc.make("CancelRetry", { payload: command, error: JobFailure })

export const JobEntity = Entity.make("Job", [
  LeaseExpired,
  ThrowError,
  Fail,
  UpdateRetries,
  Heartbeat,
  SetRetryPolicy,
  RetryNow,
  CancelRetry
])

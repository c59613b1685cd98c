// A job's completion, sent straight to its instance's entity: the instance's engine refuses a job that is no longer
// open, so the completion needs no line of its own in the job's entity (a message there cost ~0.25 ms of CPU under load, on
// the path every one-task instance takes). The job's row answers 404 (another tenant's job, or none) and the 409 of
// a job already closed before the instance is asked. The command id derived from the job makes a retried completion
// apply once.
import { Effect } from "effect"
import type { Principal } from "../../auth/Principal.ts"
import type { JobReadsShape } from "../../persistence/jobs/JobReads.ts"
import { type ClientError, conflict } from "../../schema/ApiErrors.ts"
import type { JobId } from "../../schema/ResourceIds.ts"
import type { AdHocJobResult, Job } from "../../schema/Work.ts"
import type { ProcessInstancesShape } from "../instances/ProcessInstances.ts"
import { readJobRow, toJob } from "./JobActivation.ts"

/** The engine's job result carries no `type` tag (only an ad-hoc subprocess's job takes one). */
const withoutType = ({ type: _, ...result }: typeof AdHocJobResult.Type) => result

export const makeJobCompletion = (reads: JobReadsShape, instances: ProcessInstancesShape) => {
  const complete: (
    principal: Principal,
    jobId: JobId,
    variables: Readonly<Record<string, unknown>>,
    result: typeof AdHocJobResult.Type | undefined
  ) => Effect.Effect<Job, ClientError> = Effect.fnUntraced(function*(principal, jobId, variables, result) {
    const job = yield* readJobRow(reads, principal.tenantId, jobId)
    if (job.state === "COMPLETED" || job.state === "CANCELED") {
      return yield* conflict(`job ${jobId} is ${job.state.toLowerCase()} and cannot be completed`)
    }
    const reply = yield* instances.apply(principal, job.instance_id, {
      type: "CompleteJob",
      jobId,
      variables,
      ...(result === undefined ? {} : { result: withoutType(result) })
    }, `complete-job:${jobId}`)
    // The completion changed the row's state and time only: no need to read it again. Two requests completing the
    // same job at the same time carry the same command id: the instance applies the first, and answers the second
    // with the first's recorded reply (both succeed, as a retry does). A recorded reply without a commit time (one
    // older than that field) is read back.
    return reply.committedAt === undefined
      ? toJob(yield* readJobRow(reads, principal.tenantId, jobId))
      : toJob({ ...job, state: "COMPLETED", updated_at: reply.committedAt })
  })
  return complete
}

// A worker waiting for a job (a long poll or a job stream), as the instance entity that creates jobs sees it: the
// entity may commit a new job leased to it and hand it over (actors/JobPush.ts). JobAvailability keeps the takers.
import type { CommitAuditShape } from "../../persistence/instances/CommitAudit.ts"
import type { Job } from "../../schema/Work.ts"

/** A waiting worker's activation, as the instance entity sees it: it may hand a job it creates straight to it. */
export interface JobTaker {
  readonly worker: string
  /** How long the worker's lease lasts (its activation's `timeout`). */
  readonly lockMillis: number
  /** The audit record of the worker's request, which the commit of the job leased to it may write (CommitAudit.ts). */
  readonly audit: CommitAuditShape | undefined
  /** The job was committed leased to this worker: the activation answers it. */
  readonly deliver: (job: Job) => void
  /** The commit did not happen: the activation goes back to looking. */
  readonly release: () => void
}

/** What a listener that takes pushed jobs says of itself. */
export type TakerOf = Pick<JobTaker, "worker" | "lockMillis" | "audit">

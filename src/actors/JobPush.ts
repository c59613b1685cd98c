// Job push, as Zeebe does it for waiting workers: a job a command creates is committed already leased to a worker of
// this node that waits for one of its type (a long poll with nothing to take), and handed to that worker right after
// the commit — one fsync for the creation and the lease, no activation query, no second round trip. Jobs no worker
// waits for here are announced as before (JobAvailability), for workers on any node to activate.
//
// A worker whose request goes away after its job was reserved leaves the job leased to it until the lease runs out,
// as when an activation's answer is lost on the way.
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { InstanceEvent, InstanceState } from "../engine/InstanceState.ts"
import { jobVariablesNow } from "../engine/JobVariables.ts"
import type { CommitAuditShape } from "../persistence/instances/CommitAudit.ts"
import type { JobLease } from "../persistence/instances/InstanceCommit.ts"
import type { Job } from "../schema/Work.ts"
import type { JobAvailabilityShape } from "../services/work/JobAvailability.ts"
import type { JobTaker } from "../services/work/JobTaker.ts"

type JobCreated = Extract<InstanceEvent, { readonly type: "JobCreated" }>

export interface JobPush {
  readonly created: JobCreated
  readonly taker: JobTaker
  readonly lease: JobLease
}

/** A waiting worker reserved for each new job that has one on this node (listener jobs included). */
export const reserveTakers = (
  availability: JobAvailabilityShape,
  tenantId: string,
  events: ReadonlyArray<InstanceEvent>,
  now: number
): ReadonlyArray<JobPush> =>
  events.flatMap((event) => {
    if (event.type !== "JobCreated") return []
    const taker = availability.reserve(tenantId, event.jobType)
    if (taker === undefined) return []
    return [{
      created: event,
      taker,
      lease: { worker: taker.worker, deadline: new Date(now + taker.lockMillis).toISOString() }
    }]
  })

export const leasesOf = (pushes: ReadonlyArray<JobPush>): ReadonlyMap<string, JobLease> | undefined =>
  pushes.length === 0 ? undefined : new Map(pushes.map((push) => [push.created.jobId, push.lease]))

/** The audit records of the workers' requests, offered to the commit that leases them their jobs. */
export const auditsOf = (pushes: ReadonlyArray<JobPush>): ReadonlyArray<CommitAuditShape> | undefined => {
  const audits = pushes.flatMap((push) => (push.taker.audit === undefined ? [] : [push.taker.audit]))
  return audits.length === 0 ? undefined : audits
}

/** The job as an activation right after the commit would answer it (its variables as they are now). */
export const pushedJob = (
  push: JobPush,
  instanceId: string,
  graph: ProcessGraph,
  state: InstanceState,
  committedAt: string
): Job => ({
  id: push.created.jobId,
  type: push.created.jobType,
  state: "ACTIVATED",
  processInstanceId: instanceId,
  nodeId: push.created.nodeId,
  elementInstanceId: push.created.tokenId,
  retries: push.created.retries,
  worker: push.lease.worker,
  deadline: push.lease.deadline,
  customHeaders: push.created.headers,
  variables: jobVariablesNow(graph, state, push.created.jobId, push.created.variables) ?? push.created.variables,
  errorMessage: null,
  createdAt: committedAt,
  updatedAt: committedAt
})

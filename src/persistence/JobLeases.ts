// The lease writes of job activations (services/JobActivation.ts), group-committed: the leases asked for while an
// earlier write is under way go to the database together, as one UPDATE. Each lease is still decided row by row by
// the statement's guard (the job must still be free, or its lease run out; its instance active), so a write batched
// with others changes nothing about which leases are taken.
import { Context, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { makeGroupCommit } from "./GroupCommit.ts"
import { pgArray, toJson } from "./SqlValues.ts"

export interface LeaseRequest {
  readonly jobId: string
  readonly tenantId: string
  readonly worker: string
  /** ISO 8601: the lease runs until then. */
  readonly deadline: string
  /** ISO 8601: the moment the worker asked (a lease that ran out before it may be taken over). */
  readonly now: string
}

/** The job's row as leased, with the state and worker it had before (ACTIVATED: a lease ran out). */
export type LeasedJobRow = Record<string, unknown> & {
  readonly id: string
  readonly previous_state: string
  readonly previous_worker: string | null
}

export interface JobLeasesShape {
  /** The leased row, or undefined when the job could not be leased (taken, closed, its instance not active). */
  readonly lease: (request: LeaseRequest) => Effect.Effect<LeasedJobRow | undefined>
}

export class JobLeases extends Context.Service<JobLeases, JobLeasesShape>()("flowcore/JobLeases") {
  static readonly layer = Layer.effect(
    JobLeases,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const writes = makeGroupCommit<LeaseRequest, LeasedJobRow | undefined, never>({
        maxBatch: 500,
        maxInFlight: 2,
        flush: Effect.fnUntraced(function*(requests) {
          const rows = yield* sql<LeasedJobRow>`WITH asked AS (
                SELECT * FROM jsonb_to_recordset(${
            toJson(requests.map((r) => ({
              id: r.jobId,
              tenant_id: r.tenantId,
              worker: r.worker,
              deadline: r.deadline,
              now: r.now
            })))
          }::jsonb) AS r(id uuid, tenant_id text, worker text, deadline timestamptz, now timestamptz)),
              previous AS (
                SELECT j.id, j.state AS previous_state, j.worker AS previous_worker FROM jobs j JOIN asked ON asked.id = j.id
                WHERE j.id = ANY(${
            pgArray(requests.map((r) => r.jobId))
          }::uuid[]) AND j.tenant_id::text = asked.tenant_id)
              UPDATE jobs SET state = 'ACTIVATED', worker = asked.worker, deadline = asked.deadline,
                updated_at = asked.now,
                lock_expiries = jobs.lock_expiries + CASE WHEN jobs.state = 'ACTIVATED' THEN 1 ELSE 0 END
              FROM asked, previous
              WHERE jobs.id = asked.id AND jobs.id = previous.id
                AND ((jobs.state = 'ACTIVATABLE' AND (jobs.deadline IS NULL OR jobs.deadline <= asked.now))
                  OR (jobs.state = 'ACTIVATED' AND jobs.deadline < asked.now))
                AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = jobs.instance_id AND i.state <> 'ACTIVE')
              RETURNING jobs.*, previous.previous_state, previous.previous_worker`.pipe(Effect.orDie)
          const byId = new Map(rows.map((row) => [String(row.id), row]))
          return requests.map((request) => Exit.succeed(byId.get(request.jobId)))
        })
      })
      return { lease: writes.submit }
    })
  )
}

// The lease of job activations (services/work/JobActivation.ts): one statement picks the jobs a worker may take and leases
// them. The picking locks each row it takes with FOR UPDATE SKIP LOCKED, so concurrent activations — of this node or
// another — never wait for one another nor pick the same job: each walks past the rows another is leasing and takes the
// next ones. (Before, one activation per job type at a time picked candidates on this node, then leased them in a
// second statement: with 16 workers of one type, an activation waited 50–70 ms at the median for its turn.)
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { insertFromRecordSet, loadColumnTypes } from "../RecordSetInsert.ts"
import { pgArray } from "../SqlValues.ts"

export interface LeaseRequest {
  readonly tenantId: string
  readonly jobType: string
  readonly worker: string
  /** ISO 8601: the lease runs until then. */
  readonly deadline: string
  /** ISO 8601: the moment the worker asked (a lease that ran out before it may be taken over). */
  readonly now: string
  /** At most this many jobs. */
  readonly limit: number
  /**
   * The audit_events row of the worker's request (persistence/instances/CommitAudit.ts), written by the same statement: the
   * activation's answer waits for no commit of its own.
   */
  readonly audit?: Record<string, unknown> | undefined
}

/** The job's row as leased, with the state and worker it had before (ACTIVATED: a lease ran out). */
export type LeasedJobRow = Record<string, unknown> & {
  readonly id: string
  readonly previous_state: string
  readonly previous_worker: string | null
  /** The job's instance as the statement read it (its engine state on the first of its rows only). */
  readonly instance_deployment_id: string | null
  readonly instance_engine_state: unknown
}

export interface JobLeasesShape {
  /**
   * Up to `limit` jobs of the type leased to the worker: leases that ran out first (by deadline), then the oldest
   * waiting, oldest first — none of an instance that is not active, none another activation is leasing right now.
   */
  readonly leaseNext: (request: LeaseRequest) => Effect.Effect<ReadonlyArray<LeasedJobRow>>
  /**
   * Gives jobs leased to the worker back, to be activated again (an activation whose answer would have been too large
   * keeps only the jobs that fit: services/work/ResponseBudget.ts).
   */
  readonly release: (
    tenantId: string,
    worker: string,
    jobIds: ReadonlyArray<string>,
    now: string
  ) => Effect.Effect<void>
}

export class JobLeases extends Context.Service<JobLeases, JobLeasesShape>()("flowcore/JobLeases") {
  static readonly layer = Layer.effect(
    JobLeases,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const types = yield* Effect.orDie(loadColumnTypes(sql, ["audit_events"]))
      return {
        // The two kinds are picked apart so each walks its own partial index in order and stops at the limit: the cost
        // follows the jobs handed out, not the backlog or the jobs in flight. A locked row is the row as it is now
        // (a change committed after the statement began is seen), so the state and worker before the lease come from
        // the picking; the UPDATE's guard decides once more.
        leaseNext: ({ audit, deadline, jobType, limit, now, tenantId, worker }) =>
          sql<LeasedJobRow>`WITH expired AS (
            SELECT j.id, j.created_at, j.state AS previous_state, j.worker AS previous_worker FROM jobs j
            WHERE j.tenant_id = ${tenantId} AND j.type = ${jobType} AND j.state = 'ACTIVATED' AND j.deadline < ${now}
              AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
            ORDER BY j.deadline LIMIT ${limit} FOR UPDATE OF j SKIP LOCKED),
          ready AS (
            SELECT j.id, j.created_at, j.state AS previous_state, j.worker AS previous_worker FROM jobs j
            WHERE j.tenant_id = ${tenantId} AND j.type = ${jobType} AND j.state = 'ACTIVATABLE'
              AND (j.deadline IS NULL OR j.deadline <= ${now})
              AND NOT EXISTS (SELECT 1 FROM process_instances i WHERE i.id = j.instance_id AND i.state <> 'ACTIVE')
            ORDER BY j.created_at, j.id LIMIT ${limit} FOR UPDATE OF j SKIP LOCKED),
          picked AS (
            SELECT * FROM (SELECT * FROM expired UNION ALL SELECT * FROM ready) both_kinds
            ORDER BY created_at, id LIMIT ${limit})${
            audit === undefined
              ? sql``
              : sql`, audited AS (${insertFromRecordSet(sql, types, "audit_events", [audit])})`
          }
, leased AS (
          UPDATE jobs SET state = 'ACTIVATED', worker = ${worker}, deadline = ${deadline}, updated_at = ${now},
            lock_expiries = jobs.lock_expiries + CASE WHEN jobs.state = 'ACTIVATED' THEN 1 ELSE 0 END
          FROM picked
          WHERE jobs.id = picked.id
            AND ((jobs.state = 'ACTIVATABLE' AND (jobs.deadline IS NULL OR jobs.deadline <= ${now}))
              OR (jobs.state = 'ACTIVATED' AND jobs.deadline < ${now}))
          RETURNING jobs.*, picked.previous_state, picked.previous_worker)
          SELECT leased.*, i.deployment_id AS instance_deployment_id,
            CASE WHEN row_number() OVER (PARTITION BY leased.instance_id ORDER BY leased.id) = 1
              THEN i.engine_state END AS instance_engine_state
          FROM leased LEFT JOIN process_instances i ON i.id = leased.instance_id`.pipe(Effect.orDie),
        release: (tenantId, worker, jobIds, now) =>
          sql`UPDATE jobs SET state = 'ACTIVATABLE', worker = NULL, deadline = NULL, updated_at = ${now}
            WHERE tenant_id = ${tenantId} AND id = ANY(${pgArray(jobIds)}::uuid[]) AND state = 'ACTIVATED'
              AND worker = ${worker}`.pipe(Effect.asVoid, Effect.orDie)
      } satisfies JobLeasesShape
    })
  )
}

// The jobs projection: what workers activate. A failure is recorded (its worker is the one holding the job); with
// retries left the job is activatable again once retryAt has passed (the deadline column holds it).
import { Effect } from "effect"
import type { RowsChange } from "../BatchWrites.ts"
import { jsonColumn, pgArray, toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

interface ClosedJob {
  readonly id: string
  readonly tenant_id: string
  readonly state: "COMPLETED" | "CANCELED" | "ERROR_THROWN"
  readonly at: string
}

const closeJobs: RowsChange<ClosedJob> = {
  name: "close jobs",
  phase: "update",
  table: "jobs",
  key: (row) => row.id,
  insertedKey: (row) => String(row["id"]),
  statement: (sql, rows) =>
    sql`UPDATE jobs AS j SET state = v.state, updated_at = v.at
      FROM jsonb_to_recordset(${toJson(rows)}::jsonb) AS v(id uuid, tenant_id uuid, state text, at timestamptz)
      WHERE j.id = v.id AND j.tenant_id = v.tenant_id AND j.id = ANY(${pgArray(rows.map((row) => row.id))}::uuid[])`
}

const closed =
  (state: ClosedJob["state"]) => ({ writes, tenantId, now }: ProjectionContext, event: { readonly jobId: string }) =>
    writes.rows(closeJobs, { id: event.jobId, tenant_id: tenantId, state, at: now })

export const jobProjections: Projections = {
  JobCreated: ({ writes, tenantId, instanceId, now, leaseOf }, event) => {
    const lease = leaseOf(event.jobId)
    writes.insert("jobs", {
      tenant_id: tenantId,
      id: event.jobId,
      instance_id: instanceId,
      node_id: event.nodeId,
      element_instance_id: event.tokenId,
      type: event.jobType,
      state: lease === undefined ? "ACTIVATABLE" : "ACTIVATED",
      retries: event.retries,
      worker: lease?.worker ?? null,
      deadline: lease?.deadline ?? null,
      custom_headers: jsonColumn(event.headers),
      variables: jsonColumn(event.variables),
      error_message: null,
      created_at: now,
      updated_at: now
    })
  },
  JobCompleted: closed("COMPLETED"),
  JobCanceled: closed("CANCELED"),
  JobErrorThrown: closed("ERROR_THROWN"),
  JobFailed: ({ writes, tenantId, now }, event) =>
    writes.then((sql) =>
      Effect.andThen(
        sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at)
          SELECT tenant_id, id, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${event.jobId}), worker,
            ${event.errorMessage}, ${event.retries}, ${event.retryAt}, ${now}
          FROM jobs WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`,
        sql`UPDATE jobs SET state = ${event.retries > 0 ? "ACTIVATABLE" : "FAILED"}, retries = ${event.retries},
            worker = NULL, deadline = ${event.retryAt}, error_message = ${event.errorMessage}, updated_at = ${now}
          WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`
      )
    ),
  // A locked job keeps its worker and lock; any other becomes claimable at once.
  JobRetriesUpdated: ({ writes, tenantId, now }, event) =>
    writes.then((sql) =>
      sql`UPDATE jobs SET retries = ${event.retries},
        state = CASE WHEN state = 'FAILED' THEN 'ACTIVATABLE' ELSE state END,
        worker = CASE WHEN state = 'ACTIVATED' THEN worker ELSE NULL END,
        deadline = CASE WHEN state = 'ACTIVATED' THEN deadline ELSE NULL END, updated_at = ${now}
      WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`
    )
}

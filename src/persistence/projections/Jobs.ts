// The jobs projection: what workers activate. A failure is recorded (its worker is the one holding the job); with
// retries left the job is activatable again once retryAt has passed (the deadline column holds it).
import { Effect } from "effect"
import { toJson } from "../SqlValues.ts"
import type { ProjectionContext, Projections } from "./Projection.ts"

const closed =
  (state: "COMPLETED" | "CANCELED" | "ERROR_THROWN") =>
  ({ sql, tenantId, now }: ProjectionContext, event: { readonly jobId: string }) =>
    sql`UPDATE jobs SET state = ${state}, updated_at = ${now} WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`
      .pipe(Effect.asVoid)

export const jobProjections: Projections = {
  JobCreated: ({ sql, tenantId, instanceId, now }, event) =>
    sql`INSERT INTO jobs (tenant_id, id, instance_id, node_id, element_instance_id, type, state, retries,
        worker, deadline, custom_headers, variables, error_message, created_at, updated_at)
      VALUES (${tenantId}, ${event.jobId}, ${instanceId}, ${event.nodeId}, ${event.tokenId}, ${event.jobType},
        'ACTIVATABLE', ${event.retries}, NULL, NULL, ${toJson(event.headers)}::jsonb, ${toJson(event.variables)}::jsonb,
        NULL, ${now}, ${now})`.pipe(Effect.asVoid),
  JobCompleted: closed("COMPLETED"),
  JobCanceled: closed("CANCELED"),
  JobErrorThrown: closed("ERROR_THROWN"),
  JobFailed: ({ sql, tenantId, now }, event) =>
    Effect.andThen(
      sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at)
        SELECT tenant_id, id, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${event.jobId}), worker, ${event.errorMessage},
          ${event.retries}, ${event.retryAt}, ${now}
        FROM jobs WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`,
      sql`UPDATE jobs SET state = ${
        event.retries > 0 ? "ACTIVATABLE" : "FAILED"
      }, retries = ${event.retries}, worker = NULL,
          deadline = ${event.retryAt}, error_message = ${event.errorMessage}, updated_at = ${now}
        WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`
    ).pipe(Effect.asVoid),
  // A locked job keeps its worker and lock; any other becomes claimable at once.
  JobRetriesUpdated: ({ sql, tenantId, now }, event) =>
    sql`UPDATE jobs SET retries = ${event.retries},
        state = CASE WHEN state = 'FAILED' THEN 'ACTIVATABLE' ELSE state END,
        worker = CASE WHEN state = 'ACTIVATED' THEN worker ELSE NULL END,
        deadline = CASE WHEN state = 'ACTIVATED' THEN deadline ELSE NULL END, updated_at = ${now}
      WHERE id = ${event.jobId} AND tenant_id = ${tenantId}`.pipe(Effect.asVoid)
}

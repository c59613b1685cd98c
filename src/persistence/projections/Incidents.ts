// The incidents projection: what operators see and resolve.
import { Effect } from "effect"
import type { Projections } from "./Projection.ts"

export const incidentProjections: Projections = {
  IncidentRaised: ({ sql, tenantId, instanceId, now }, event) =>
    sql`INSERT INTO incidents (tenant_id, id, instance_id, node_id, element_instance_id, job_id, type, message,
        state, created_at, resolved_at)
      VALUES (${tenantId}, ${event.incidentId}, ${instanceId}, ${event.nodeId}, ${event.tokenId}, ${
      event.jobId ?? null
    },
        ${event.incidentType}, ${event.message}, 'OPEN', ${now}, NULL)`.pipe(Effect.asVoid),
  IncidentResolved: ({ sql, tenantId, now }, event) =>
    sql`UPDATE incidents SET state = 'RESOLVED', resolved_at = ${now} WHERE id = ${event.incidentId} AND tenant_id = ${tenantId}`
      .pipe(Effect.asVoid)
}

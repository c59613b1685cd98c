// The incidents projection: what operators see and resolve.
import type { RowsChange } from "../BatchWrites.ts"
import { pgArray, toJson } from "../SqlValues.ts"
import type { Projections } from "./Projection.ts"

interface ResolvedIncident {
  readonly id: string
  readonly tenant_id: string
  readonly at: string
}

const resolveIncidents: RowsChange<ResolvedIncident> = {
  name: "resolve incidents",
  phase: "update",
  table: "incidents",
  key: (row) => row.id,
  insertedKey: (row) => String(row["id"]),
  statement: (sql, rows) =>
    sql`UPDATE incidents AS i SET state = 'RESOLVED', resolved_at = v.at
      FROM jsonb_to_recordset(${toJson(rows)}::jsonb) AS v(id uuid, tenant_id uuid, at timestamptz)
      WHERE i.id = v.id AND i.tenant_id = v.tenant_id AND i.id = ANY(${pgArray(rows.map((row) => row.id))}::uuid[])`
}

export const incidentProjections: Projections = {
  IncidentRaised: ({ writes, tenantId, instanceId, now }, event) =>
    writes.insert("incidents", {
      tenant_id: tenantId,
      id: event.incidentId,
      instance_id: instanceId,
      node_id: event.nodeId,
      element_instance_id: event.tokenId,
      job_id: event.jobId ?? null,
      type: event.incidentType,
      message: event.message,
      state: "OPEN",
      created_at: now,
      resolved_at: null
    }),
  IncidentResolved: ({ writes, tenantId, now }, event) =>
    writes.rows(resolveIncidents, { id: event.incidentId, tenant_id: tenantId, at: now })
}

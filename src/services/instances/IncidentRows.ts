// The incidents projection row and its API form, shared by the incident list and incident recovery.
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import type { Incident } from "../../schema/Work.ts"
import { isoFromDb, isoOrNull } from "../Time.ts"

export interface IncidentRow {
  readonly id: string
  readonly instance_id: ProcessInstanceId
  readonly node_id: string
  readonly element_instance_id: string | null
  readonly job_id: string | null
  readonly type: string
  readonly message: string
  readonly state: Incident["state"]
  readonly created_at: unknown
  readonly resolved_at: unknown
}

export const toIncident = (row: IncidentRow): Incident => ({
  id: row.id,
  processInstanceId: row.instance_id,
  nodeId: row.node_id,
  jobId: row.job_id,
  type: row.type,
  message: row.message,
  state: row.state,
  createdAt: isoFromDb(row.created_at),
  resolvedAt: isoOrNull(row.resolved_at)
})

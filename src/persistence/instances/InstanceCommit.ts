// What one instance command commits (CommitInput, Committed) and the rows it writes of its own: the instance's row
// (inserted by a start, else updated under a guard) and its command id. Both ways InstanceStore writes a batch — one
// statement or a transaction of several — build them here.
import type { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import type { EngineOutcome, InstanceStatus } from "../../engine/EngineOutcome.ts"
import type { InstanceState } from "../../engine/InstanceState.ts"
import { jsonColumn, pgArray, toJson } from "../SqlValues.ts"
import type { CommitAuditShape } from "./CommitAudit.ts"

export interface StoredInstance {
  readonly id: string
  readonly tenantId: string
  readonly parentInstanceId: string | null
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly status: InstanceStatus
  readonly engineState: InstanceState | undefined
  readonly lastEventSeq: number
  readonly graph: ProcessGraph
}

export interface NewInstance {
  readonly id: string
  readonly tenantId: string
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly startedBy: string
  readonly parentInstanceId: string | null
  readonly parentNodeId: string | null
  readonly rootInstanceId: string
}

export interface Committed {
  readonly instance: StoredInstance
  /** Messages written to the outbox: the relay is woken to deliver them now. */
  readonly outboxWritten: number
}

export interface CommitInput {
  readonly instance: StoredInstance
  /** Present when the command started the instance: its row is inserted. */
  readonly created: NewInstance | undefined
  readonly outcome: EngineOutcome
  readonly commandId: string
  readonly reply: unknown
  readonly actor: string
  readonly now: string
  /** Jobs this command creates already leased to a waiting worker (job push): their rows say ACTIVATED. */
  readonly leases?: ReadonlyMap<string, JobLease> | undefined
  /** Audit records of other requests this commit answers (workers its jobs are leased to): offered to it. */
  readonly alsoAudit?: ReadonlyArray<CommitAuditShape> | undefined
  /** The audit_events rows it writes (InstanceStore fills it from the offers: CommitAudit.ts). */
  readonly auditRows?: ReadonlyArray<Record<string, unknown>> | undefined
}

export interface JobLease {
  readonly worker: string
  /** ISO 8601: the lease runs until then. */
  readonly deadline: string
}

const FINAL: ReadonlySet<InstanceStatus> = new Set(["COMPLETED", "CANCELED"])

/** The instance as a command left it, committed. */
export const committedOf = (input: CommitInput, outboxWritten: number): Committed => ({
  instance: {
    ...input.instance,
    status: input.outcome.status,
    engineState: input.outcome.state,
    lastEventSeq: lastEventSeqOf(input)
  },
  outboxWritten
})

export const lastEventSeqOf = (input: CommitInput) => input.instance.lastEventSeq + input.outcome.events.length
const endedAt = (input: CommitInput) => (FINAL.has(input.outcome.status) ? input.now : null)

/** The process_instances row of a command that starts its instance. */
export const createdRow = (input: CommitInput): Record<string, unknown> => {
  const instance = input.created!
  return {
    tenant_id: instance.tenantId,
    id: instance.id,
    deployment_id: instance.deploymentId,
    process_key: instance.processKey,
    version: instance.version,
    state: input.outcome.status,
    parent_instance_id: instance.parentInstanceId,
    parent_node_id: instance.parentNodeId,
    root_instance_id: instance.rootInstanceId,
    variables: jsonColumn(input.outcome.variables),
    variables_version: input.outcome.variablesVersion,
    engine_state: jsonColumn(input.outcome.state),
    last_event_seq: lastEventSeqOf(input),
    incident_count: input.outcome.openIncidents,
    started_by: instance.startedBy,
    started_at: input.now,
    ended_at: endedAt(input),
    updated_at: input.now
  }
}

/** The instance_commands row: the command id claimed, with its reply. */
export const commandRow = (input: CommitInput): Record<string, unknown> => ({
  tenant_id: input.instance.tenantId,
  instance_id: input.instance.id,
  command_id: input.commandId,
  reply: jsonColumn(input.reply),
  processed_at: input.now
})

/**
 * The new state of the instances the commands did not start, RETURNING the id of each row changed. The guard on
 * last_event_seq makes a stale writer (a second runner that still believes it owns the entity) change nothing instead
 * of overwriting newer state. deployment_id and version change only by a migration.
 */
export const updateInstances = (sql: SqlClient.SqlClient, updates: ReadonlyArray<CommitInput>) => {
  const rows = updates.map((input) => ({
    id: input.instance.id,
    previous_seq: input.instance.lastEventSeq,
    state: input.outcome.status,
    deployment_id: input.instance.deploymentId,
    version: input.instance.version,
    variables: input.outcome.variables,
    variables_version: input.outcome.variablesVersion,
    engine_state: input.outcome.state,
    last_event_seq: lastEventSeqOf(input),
    incident_count: input.outcome.openIncidents,
    ended_at: endedAt(input),
    updated_at: input.now
  }))
  return sql<{ readonly id: string }>`UPDATE process_instances AS p SET state = v.state,
      deployment_id = v.deployment_id, version = v.version, variables = v.variables,
      variables_version = v.variables_version, engine_state = v.engine_state,
      last_event_seq = v.last_event_seq, incident_count = v.incident_count,
      ended_at = coalesce(p.ended_at, v.ended_at), updated_at = v.updated_at
    FROM jsonb_to_recordset(${toJson(rows)}::jsonb) AS v(id uuid, previous_seq bigint, state text,
      deployment_id uuid, version integer, variables jsonb, variables_version integer, engine_state jsonb,
      last_event_seq bigint, incident_count integer, ended_at timestamptz, updated_at timestamptz)
    WHERE p.id = v.id AND p.last_event_seq = v.previous_seq
      AND p.id = ANY(${pgArray(rows.map((row) => row.id))}::uuid[]) RETURNING p.id`
}

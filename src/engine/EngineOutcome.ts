// What one applied command produces, as the durable host writes it: the history events to append (and the events
// themselves, from which the host writes its projections and outbox), the new state and status. The vocabulary of the port between the pure core and its
// hosts (services/instances/ProcessEngine.ts); persistence writes it without knowing the core.
import type { InstanceEvent, InstanceState } from "./InstanceState.ts"

export interface HistoryEvent {
  readonly type: string
  readonly nodeId: string | null
  readonly tokenId: string | null
  readonly payload: Readonly<Record<string, unknown>>
}

export type InstanceStatus = "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELED"

export interface EngineOutcome {
  readonly state: InstanceState
  readonly status: InstanceStatus
  /** The variables of the instance's root scope after the command, and their version (optimistic locking). */
  readonly variables: Readonly<Record<string, unknown>>
  readonly variablesVersion: number
  /** Open incidents after the command (the instance row's incidentCount). */
  readonly openIncidents: number
  readonly events: ReadonlyArray<HistoryEvent>
  /** The same events as the core emitted them: the host writes its projections (jobs, tasks, ...) from them. */
  readonly instanceEvents: ReadonlyArray<InstanceEvent>
}

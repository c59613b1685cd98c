// The port between the durable host (the ProcessInstance entity) and the pure execution core: the host hands over a
// compiled graph, the instance's state and a command; it gets back the new state, the history events to append and
// the projection changes to write, all in one transaction. Nothing here does IO.
import { Context } from "effect"

export type { InstanceCommand } from "../schema/InstanceCommands.ts"
import type { InstanceCommand } from "../schema/InstanceCommands.ts"
import type { SimulationInput, SimulationReport } from "../core/Simulator.ts"

export interface HistoryEvent {
  readonly type: string
  readonly nodeId: string | null
  readonly tokenId: string | null
  readonly payload: Readonly<Record<string, unknown>>
}

/** Rows the host keeps in step with the instance's state, so lists and workers need not read the state itself. */
export type ProjectionChange =
  | {
    readonly kind: "JobCreated"
    readonly jobId: string
    readonly nodeId: string
    readonly elementInstanceId: string
    readonly jobType: string
    readonly retries: number
    readonly headers: Readonly<Record<string, string>>
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly kind: "JobClosed"; readonly jobId: string; readonly state: "COMPLETED" | "CANCELED" | "ERROR_THROWN" }
  | { readonly kind: "JobFailed"; readonly jobId: string; readonly retries: number; readonly errorMessage: string; readonly retryAt: string | null }
  | { readonly kind: "JobRetriesUpdated"; readonly jobId: string; readonly retries: number }
  | {
    readonly kind: "UserTaskCreated"
    readonly taskId: string
    readonly nodeId: string
    readonly elementInstanceId: string
    readonly name: string | null
    readonly assignee: string | null
    readonly candidateGroups: ReadonlyArray<string>
    readonly candidateUsers: ReadonlyArray<string>
    readonly formKey: string | null
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly kind: "UserTaskClosed"; readonly taskId: string; readonly state: "COMPLETED" | "CANCELED" }
  | {
    readonly kind: "SubscriptionOpened"
    readonly subscriptionId: string
    readonly nodeId: string
    readonly elementInstanceId: string
    readonly subscriptionKind: "MESSAGE" | "TIMER" | "SIGNAL"
    readonly name: string | null
    readonly correlationKey: string | null
    readonly dueAt: string | null
  }
  | { readonly kind: "SubscriptionClosed"; readonly subscriptionId: string }
  | {
    readonly kind: "IncidentRaised"
    readonly incidentId: string
    readonly nodeId: string
    readonly elementInstanceId: string | null
    readonly incidentType: string
    readonly message: string
    readonly jobId: string | null
  }
  | { readonly kind: "IncidentResolved"; readonly incidentId: string }
  | { readonly kind: "ScopeOpened"; readonly scopeId: string; readonly parentScopeId: string; readonly nodeId: string }
  | { readonly kind: "ScopeClosed"; readonly scopeId: string }
  /** Messages to other instances, delivered after the commit (outbox): start a called process, cancel a child. */
  | {
    readonly kind: "ChildStartRequested"
    readonly childInstanceId: string
    readonly nodeId: string
    readonly processKey: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly kind: "ChildCancelRequested"; readonly childInstanceId: string }
  | { readonly kind: "DecisionRequested"; readonly evaluationId: string; readonly decisionId: string; readonly variables: Readonly<Record<string, unknown>> }
  /** Migration: the token's rows (job, task, subscription, incident, scope) now name the node of the target version. */
  | { readonly kind: "ElementMigrated"; readonly elementInstanceId: string; readonly sourceNodeId: string; readonly nodeId: string }
  /** A called instance tells its caller of an error or escalation it did not catch (outbox, after the commit). */
  | {
    readonly kind: "CallerNotified"
    readonly notification: "CHILD_ERROR" | "CHILD_ESCALATION"
    readonly payload: Readonly<Record<string, unknown>>
  }
  /** A signal throw event: broadcast to the tenant after the commit, like POST /signals. */
  | { readonly kind: "SignalBroadcastRequested"; readonly broadcastId: string; readonly signalName: string; readonly variables: Readonly<Record<string, unknown>> }

export type InstanceStatus = "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELED"

export interface EngineOutcome {
  readonly state: unknown
  readonly status: InstanceStatus
  /** The variables of the instance's root scope after the command, and their version (optimistic locking). */
  readonly variables: Readonly<Record<string, unknown>>
  readonly variablesVersion: number
  /** Open incidents after the command (the instance row's incidentCount). */
  readonly openIncidents: number
  readonly events: ReadonlyArray<HistoryEvent>
  readonly changes: ReadonlyArray<ProjectionChange>
}

/** A command that does not apply to the instance as it is: nothing changes (4xx for the caller). */
export interface EngineRejection {
  readonly _tag: "Rejection"
  readonly reason: "INVALID_STATE" | "NOT_FOUND" | "INVALID_ARGUMENT" | "CONFLICT"
  readonly message: string
}

/** A token as the API shows it: where it is parked and on what. */
export interface TokenView {
  readonly tokenId: string
  readonly nodeId: string
  readonly waitingFor: "JOB" | "USER_TASK" | "JOIN" | "MESSAGE" | "SIGNAL" | "TIMER" | "CONDITION" | "SUBPROCESS" | "CHILD_INSTANCE" | "MULTI_INSTANCE" | "DECISION" | "INCIDENT" | null
  readonly jobId: string | null
  readonly taskId: string | null
  readonly incidentId: string | null
  readonly subscriptionId: string | null
  readonly childInstanceId: string | null
}

/** The instance as of one history event. */
export interface Snapshot {
  readonly variables: Readonly<Record<string, unknown>>
  readonly activeNodes: ReadonlyArray<string>
  readonly status: InstanceStatus
  readonly variablesVersion: number
  readonly openIncidents: number
}

export interface ProcessEngineShape {
  readonly tokens: (state: unknown) => ReadonlyArray<TokenView>
  /** Every variable visible from a scope, with the scope it was found in; undefined for an unknown scope. */
  readonly scopeVariables: (state: unknown, scopeId: string) => ReadonlyArray<{ readonly name: string; readonly value: unknown; readonly scopeId: string }> | undefined
  readonly nodeVariables: (state: unknown) => Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** Replays history events up to and including the last one given. */
  readonly snapshot: (instanceId: string, history: ReadonlyArray<HistoryEvent>) => Snapshot
  readonly execute: (input: {
    readonly graph: unknown
    readonly instanceId: string
    /** undefined before StartInstance. */
    readonly state: unknown
    readonly command: InstanceCommand
    readonly now: number
  }) => EngineOutcome | EngineRejection
  /** Runs many in-memory instances of a graph (nothing saved) and reports coverage and timings. */
  readonly simulate: (graph: unknown, input: SimulationInput, clock: () => number) => SimulationReport
  /** Checks a migration of an instance (its state and version's graph) to a target version's graph. */
  readonly planMigration: (input: {
    readonly source: unknown
    readonly target: unknown
    readonly state: unknown
    readonly mappings: Readonly<Record<string, string>>
    readonly mapEqualNodes: boolean
  }) => { readonly ok: true; readonly mapping: Readonly<Record<string, string>> } | { readonly ok: false; readonly problems: ReadonlyArray<string> }
  /** Applies a MigrateInstance command: the outcome's state belongs to the target graph. */
  readonly migrate: (input: {
    readonly source: unknown
    readonly target: unknown
    readonly instanceId: string
    readonly state: unknown
    readonly command: Extract<InstanceCommand, { type: "MigrateInstance" }>
    readonly now: number
  }) => EngineOutcome | EngineRejection
}

export class ProcessEngine extends Context.Service<ProcessEngine, ProcessEngineShape>()("flowcore/ProcessEngine") {}

export const isRejection = (value: EngineOutcome | EngineRejection): value is EngineRejection =>
  "_tag" in value && value._tag === "Rejection"

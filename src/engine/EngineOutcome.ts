// What one applied command produces, as the durable host writes it: the history events to append, the rows to keep in
// step (projections, outbox), the new state and status. The vocabulary of the port between the pure core and its
// hosts (services/ProcessEngine.ts); persistence writes it without knowing the core.

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

// The history events of an instance: everything that happens to it, in order. Folded by apply (Apply.ts) into the
// state; the same fold serves the live run and a replay of the history.
import type { InstanceCommand } from "../InstanceCommands.ts"
import type { BehaviourEvent } from "./BehaviourEvents.ts"
import type { BoundaryKind, ListenerProgress } from "./State.ts"
import type { TokenEvent } from "./TokenEvent.ts"

/** The life of a boundary event's subscription: `nodeId` is the boundary event, `hostTokenId` the token it is attached to. */
type BoundaryEvent<Type extends string, Fields extends object = {}> =
  & { readonly type: Type; readonly hostTokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  & Fields

/** The life of a job a token waits for. */
type JobEvent<Type extends string, Fields extends object = {}> =
  & TokenEvent<Type>
  & { readonly jobId: string }
  & Fields

/** The life of a user task a token waits for. */
type UserTaskEvent<Type extends string, Fields extends object = {}> =
  & TokenEvent<Type>
  & { readonly taskId: string }
  & Fields

/** The life of a message, signal or timer subscription a token waits on. */
type SubscriptionEvent<Type extends string, Fields extends object = {}> =
  & TokenEvent<Type>
  & { readonly subscriptionId: string }
  & Fields

export type InstanceEvent =
  | BehaviourEvent
  | {
    readonly type: "InstanceStarted"
    readonly variables: Readonly<Record<string, unknown>>
    readonly called?: boolean | undefined
  }
  /** An error nothing in this (called) instance catches goes to the call activity of its caller; the instance ends. */
  | TokenEvent<"ErrorPropagated", {
    readonly errorCode: string
    readonly errorMessage: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  /** The called instance ended with an error it did not catch: the call activity no longer waits for it. */
  | TokenEvent<"ChildErrorReceived", {
    readonly childInstanceId: string
    readonly errorCode: string
  }>
  /** An escalation nothing in this (called) instance catches goes to the call activity of its caller. */
  | TokenEvent<"EscalationPropagated", { readonly escalationCode: string }>
  | TokenEvent<"ElementActivated", {
    readonly scopeId: string
    readonly viaFlow: string | null
    /** Variables of this activation alone (an element an ad-hoc subprocess's worker activated with variables). */
    readonly variables?: Readonly<Record<string, unknown>> | undefined
  }>
  | TokenEvent<"ElementCompleted">
  | TokenEvent<"ElementTerminated">
  | TokenEvent<"FlowTaken", { readonly flowId: string }>
  | {
    readonly type: "VariablesSet"
    readonly nodeId: string | null
    readonly scopeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "VariableRemoved"; readonly scopeId: string; readonly name: string }
  | {
    readonly type: "NodeVariablesSet"
    readonly nodeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | TokenEvent<"ScopeOpened", {
    readonly scopeId: string
    readonly parentScopeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | { readonly type: "ScopeClosed"; readonly scopeId: string; readonly nodeId: string }
  /** An ad-hoc subprocess's worker declared it done: it completes once its running paths have ended. */
  | { readonly type: "AdHocCompletionFulfilled"; readonly scopeId: string; readonly nodeId: string }
  | TokenEvent<"MultiInstanceStarted", {
    readonly scopeId: string
    readonly parentScopeId: string
    readonly items: ReadonlyArray<unknown>
    readonly sequential: boolean
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | TokenEvent<"IterationStarted", {
    readonly bodyScopeId: string
    readonly index: number
    readonly scopeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | TokenEvent<"IterationCompleted", {
    readonly bodyScopeId: string
    readonly index: number
    readonly scopeId: string
  }>
  | TokenEvent<"DecisionRequested", {
    readonly evaluationId: string
    readonly decisionId: string
    /** bindingType versionTag: the latest version deployed with this tag (absent: the latest version). */
    readonly versionTag?: string | null | undefined
    /** bindingType deployment: the decision deployed together with the instance's process version. */
    readonly binding?: "deployment" | undefined
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | TokenEvent<"DecisionEvaluated", {
    readonly evaluationId: string
    readonly result: unknown
  }>
  | TokenEvent<"ChildInstanceRequested", {
    readonly childInstanceId: string
    readonly processKey: string
    /** bindingType versionTag: the latest version deployed with this tag. */
    readonly versionTag?: string
    /** bindingType deployment: the version deployed together with the caller's process version. */
    readonly binding?: "deployment" | undefined
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | TokenEvent<"ChildInstanceCompleted", {
    readonly childInstanceId: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | TokenEvent<"ChildInstanceCancelRequested", { readonly childInstanceId: string }>
  | JobEvent<"JobCreated", {
    readonly jobType: string
    readonly retries: number
    readonly headers: Readonly<Record<string, string>>
    readonly variables: Readonly<Record<string, unknown>>
    /** The job of an execution listener: which one, and (end listeners) the flows the element leaves by after. */
    readonly listener?: ListenerProgress | undefined
  }>
  | JobEvent<"JobCompleted", { readonly variables: Readonly<Record<string, unknown>> }>
  | JobEvent<"JobCanceled">
  | JobEvent<"JobErrorThrown", {
    readonly errorCode: string
    readonly errorMessage: string
  }>
  | TokenEvent<"ErrorCaught", {
    readonly errorCode: string
    readonly hostTokenId: string
    readonly boundaryNodeId: string
  }>
  | UserTaskEvent<"UserTaskCreated", {
    readonly name: string | null
    readonly assignee: string | null
    readonly candidateGroups: ReadonlyArray<string>
    readonly candidateUsers: ReadonlyArray<string>
    readonly formKey: string | null
    /** The form's version tag when the task binds its form by one. */
    readonly formVersionTag?: string | null | undefined
    /** bindingType deployment: the form deployed together with the instance's process version. */
    readonly formBinding?: "deployment" | undefined
    /** Absent in events written before schedules existed. */
    readonly priority?: number
    readonly dueDate?: string | null
    readonly followUpDate?: string | null
    /** The task's model has assigning listeners: its assignment goes through the instance (absent: none). */
    readonly assigningListeners?: boolean | undefined
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | UserTaskEvent<"UserTaskCompleted", { readonly variables: Readonly<Record<string, unknown>> }>
  | UserTaskEvent<"UserTaskCanceled">
  | TokenEvent<"JoinArrived">
  | SubscriptionEvent<"MessageSubscriptionOpened", {
    readonly messageName: string
    readonly correlationKey: string
  }>
  | SubscriptionEvent<"MessageCorrelated", { readonly variables: Readonly<Record<string, unknown>> }>
  | SubscriptionEvent<"MessageSubscriptionClosed">
  | BoundaryEvent<"BoundaryOpened", {
    readonly kind: BoundaryKind
    readonly name: string | null
    readonly correlationKey: string | null
    readonly dueAt: string | null
    readonly viaGateway?: boolean | undefined
    readonly eventScopeId?: string | undefined
    /** A timer cycle re-armed after a fire: the occurrences fired so far. */
    readonly fired?: number | undefined
  }>
  | BoundaryEvent<"BoundaryClosed">
  | BoundaryEvent<"BoundaryTriggered", {
    readonly interrupting: boolean
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | SubscriptionEvent<"TimerScheduled", { readonly dueAt: string }>
  | SubscriptionEvent<"TimerFired">
  | SubscriptionEvent<"TimerCanceled">
  | TokenEvent<"ConditionSubscribed">
  | TokenEvent<"ConditionTriggered">
  | TokenEvent<"SignalThrown", {
    readonly signalName: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  | SubscriptionEvent<"SignalSubscriptionOpened", { readonly signalName: string }>
  | SubscriptionEvent<"SignalTriggered", { readonly variables: Readonly<Record<string, unknown>> }>
  | SubscriptionEvent<"SignalSubscriptionClosed">
  | TokenEvent<"IncidentRaised", {
    readonly incidentId: string
    readonly incidentType: string
    readonly message: string
    readonly jobId?: string | undefined
  }>
  /** A worker reported a technical failure: the job waits for `retryAt`, or with no retries left an incident follows. */
  | JobEvent<"JobFailed", {
    readonly retries: number
    readonly errorMessage: string
    readonly retryAt: string | null
  }>
  /** The job has `retries` again and the token waits for it (after an incident, it is activatable again). */
  | JobEvent<"JobRetriesUpdated", { readonly retries: number }>
  /** An incident was resolved by running its node again: the token is back at the start of the node. */
  | TokenEvent<"NodeRetried", { readonly incidentId: string }>
  /** An incident was resolved by going past its node without running it. */
  | TokenEvent<"NodeSkipped", { readonly incidentId: string }>
  | { readonly type: "IncidentResolved"; readonly incidentId: string; readonly nodeId: string }
  /** An escalation was thrown; `caughtBy` is the boundary or event-subprocess start event that caught it, if any. */
  | TokenEvent<"EscalationThrown", {
    readonly escalationCode: string
    readonly caughtBy: string | null
  }>
  | TokenEvent<"TokenMoved", { readonly targetNodeId: string }>
  | {
    readonly type: "InstanceMigrated"
    readonly targetDeploymentId: string
    readonly mappings: Readonly<Record<string, string>>
  }
  /** Migration: the token now stands at the mapped node of the target version (and so do the scopes it hosts). */
  | TokenEvent<"TokenMigrated", { readonly sourceNodeId: string }>
  | { readonly type: "CommandDeferred"; readonly command: InstanceCommand }
  | { readonly type: "DeferredCommandsReleased" }
  | { readonly type: "InstanceSuspended" }
  | { readonly type: "InstanceResumed" }
  | { readonly type: "InstanceCompleted" }
  | { readonly type: "InstanceCanceled" }

// An instance's state and the events that change it. `apply` is the ONE mutator: the live path folds each event it
// emits through it, and replaying the history through it rebuilds the same state.
import type { InstanceCommand } from "./InstanceCommands.ts"

export type Wait =
  | { readonly kind: "job"; readonly jobId: string }
  | { readonly kind: "userTask"; readonly taskId: string }
  | { readonly kind: "join" }
  | { readonly kind: "message"; readonly subscriptionId: string }
  | { readonly kind: "signal"; readonly subscriptionId: string }
  | { readonly kind: "timer"; readonly subscriptionId: string }
  | { readonly kind: "condition" }
  | { readonly kind: "subprocess"; readonly scopeId: string }
  | { readonly kind: "child"; readonly childInstanceId: string }
  | { readonly kind: "multiInstance"; readonly scopeId: string }
  | { readonly kind: "decision"; readonly evaluationId: string }
  | { readonly kind: "incident"; readonly incidentId: string }

export interface Token {
  readonly id: string
  readonly nodeId: string
  /** The variable scope the token runs in: the instance id (root) or an embedded subprocess's scope id. */
  readonly scopeId: string
  /** The flow the token arrived by (joins count arrivals per flow). */
  readonly viaFlow: string | null
  readonly wait: Wait | null
  /** For one iteration of a multi-instance activity: its body's scope and the item's index. */
  readonly loop?: { readonly bodyScopeId: string; readonly index: number } | null | undefined
}

export interface Incident {
  readonly id: string
  /** A job that failed with no retries left: retrying makes it activatable again. */
  readonly jobId?: string | undefined
  readonly tokenId: string
  readonly nodeId: string
  readonly type: string
  readonly message: string
}

/**
 * A catch event armed while something runs: a boundary event while its host activity runs, the events after an
 * event-based gateway while the gateway waits, or an event subprocess's start event while its scope runs.
 */
export interface Boundary {
  readonly subscriptionId: string
  /** The token of the host activity or gateway; for an event subprocess, the scope's token (the instance id at root). */
  readonly hostTokenId: string
  /** The boundary event node (or catch event after a gateway, or event subprocess start event). */
  readonly nodeId: string
  readonly kind: BoundaryKind
  /** Armed by an event-based gateway: the node is the catch event after it. */
  readonly viaGateway?: boolean | undefined
  /** The start event of an event subprocess of this scope (the instance id for the process level). */
  readonly eventScopeId?: string | undefined
}

export type BoundaryKind = "message" | "signal" | "timer" | "conditional"

/** A variable scope below the root: one per running embedded subprocess. */
export interface Scope {
  readonly id: string
  readonly parentId: string
  readonly nodeId: string
  /** The token waiting at the subprocess node. */
  readonly tokenId: string
  readonly variables: Readonly<Record<string, unknown>>
  /** For a multi-instance body: the items (evaluated once), the next one to start and how many are done. */
  readonly loop?: {
    readonly items: ReadonlyArray<unknown>
    readonly sequential: boolean
    readonly nextIndex: number
    readonly completed: number
  } | undefined
}

export interface InstanceState {
  readonly instanceId: string
  readonly status: "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELED"
  /** Started by a call activity: what nothing here catches (errors, escalations) goes to the caller. */
  readonly called?: boolean | undefined
  readonly variables: Readonly<Record<string, unknown>>
  /** Bumped by every change of the variables; PUT /variables compares it with expectedVersion. */
  readonly variablesVersion: number
  readonly scopes: Readonly<Record<string, Scope>>
  /** Variables attached to nodes: local to each activation of the node. */
  readonly nodeVariables: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly tokens: Readonly<Record<string, Token>>
  readonly incidents: Readonly<Record<string, Incident>>
  readonly boundaries?: Readonly<Record<string, Boundary>> | undefined
  /** Commands that arrived while the instance was suspended, applied in order on resume. */
  readonly deferred: ReadonlyArray<InstanceCommand>
  /** Events applied so far: ids of new tokens, jobs and tasks derive from it, so they are deterministic. */
  readonly eventCount: number
}

export type InstanceEvent =
  | { readonly type: "InstanceStarted"; readonly variables: Readonly<Record<string, unknown>>; readonly called?: boolean | undefined }
  /** An error nothing in this (called) instance catches goes to the call activity of its caller; the instance ends. */
  | {
    readonly type: "ErrorPropagated"
    readonly tokenId: string
    readonly nodeId: string
    readonly errorCode: string
    readonly errorMessage: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  /** The called instance ended with an error it did not catch: the call activity no longer waits for it. */
  | { readonly type: "ChildErrorReceived"; readonly tokenId: string; readonly nodeId: string; readonly childInstanceId: string; readonly errorCode: string }
  /** An escalation nothing in this (called) instance catches goes to the call activity of its caller. */
  | { readonly type: "EscalationPropagated"; readonly tokenId: string; readonly nodeId: string; readonly escalationCode: string }
  | { readonly type: "ElementActivated"; readonly tokenId: string; readonly nodeId: string; readonly scopeId: string; readonly viaFlow: string | null }
  | { readonly type: "ElementCompleted"; readonly tokenId: string; readonly nodeId: string }
  | { readonly type: "ElementTerminated"; readonly tokenId: string; readonly nodeId: string }
  | { readonly type: "FlowTaken"; readonly flowId: string; readonly tokenId: string; readonly nodeId: string }
  | { readonly type: "VariablesSet"; readonly nodeId: string | null; readonly scopeId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "VariableRemoved"; readonly scopeId: string; readonly name: string }
  | { readonly type: "NodeVariablesSet"; readonly nodeId: string; readonly variables: Readonly<Record<string, unknown>> }
  | {
    readonly type: "ScopeOpened"
    readonly scopeId: string
    readonly parentScopeId: string
    readonly nodeId: string
    readonly tokenId: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "ScopeClosed"; readonly scopeId: string; readonly nodeId: string }
  | {
    readonly type: "MultiInstanceStarted"
    readonly tokenId: string
    readonly nodeId: string
    readonly scopeId: string
    readonly parentScopeId: string
    readonly items: ReadonlyArray<unknown>
    readonly sequential: boolean
    readonly variables: Readonly<Record<string, unknown>>
  }
  | {
    readonly type: "IterationStarted"
    readonly bodyScopeId: string
    readonly index: number
    readonly scopeId: string
    readonly tokenId: string
    readonly nodeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "IterationCompleted"; readonly bodyScopeId: string; readonly index: number; readonly scopeId: string; readonly tokenId: string; readonly nodeId: string }
  | {
    readonly type: "DecisionRequested"
    readonly tokenId: string
    readonly nodeId: string
    readonly evaluationId: string
    readonly decisionId: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "DecisionEvaluated"; readonly tokenId: string; readonly nodeId: string; readonly evaluationId: string; readonly result: unknown }
  | {
    readonly type: "ChildInstanceRequested"
    readonly tokenId: string
    readonly nodeId: string
    readonly childInstanceId: string
    readonly processKey: string
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "ChildInstanceCompleted"; readonly tokenId: string; readonly nodeId: string; readonly childInstanceId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "ChildInstanceCancelRequested"; readonly tokenId: string; readonly nodeId: string; readonly childInstanceId: string }
  | {
    readonly type: "JobCreated"
    readonly tokenId: string
    readonly nodeId: string
    readonly jobId: string
    readonly jobType: string
    readonly retries: number
    readonly headers: Readonly<Record<string, string>>
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "JobCompleted"; readonly tokenId: string; readonly nodeId: string; readonly jobId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "JobCanceled"; readonly tokenId: string; readonly nodeId: string; readonly jobId: string }
  | { readonly type: "JobErrorThrown"; readonly tokenId: string; readonly nodeId: string; readonly jobId: string; readonly errorCode: string; readonly errorMessage: string }
  | {
    readonly type: "ErrorCaught"
    readonly tokenId: string
    readonly nodeId: string
    readonly errorCode: string
    readonly hostTokenId: string
    readonly boundaryNodeId: string
  }
  | {
    readonly type: "UserTaskCreated"
    readonly tokenId: string
    readonly nodeId: string
    readonly taskId: string
    readonly name: string | null
    readonly assignee: string | null
    readonly candidateGroups: ReadonlyArray<string>
    readonly candidateUsers: ReadonlyArray<string>
    readonly formKey: string | null
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "UserTaskCompleted"; readonly tokenId: string; readonly nodeId: string; readonly taskId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "UserTaskCanceled"; readonly tokenId: string; readonly nodeId: string; readonly taskId: string }
  | { readonly type: "JoinArrived"; readonly tokenId: string; readonly nodeId: string }
  | {
    readonly type: "MessageSubscriptionOpened"
    readonly tokenId: string
    readonly nodeId: string
    readonly subscriptionId: string
    readonly messageName: string
    readonly correlationKey: string
  }
  | { readonly type: "MessageCorrelated"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "MessageSubscriptionClosed"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  | {
    readonly type: "BoundaryOpened"
    readonly hostTokenId: string
    readonly nodeId: string
    readonly subscriptionId: string
    readonly kind: BoundaryKind
    readonly name: string | null
    readonly correlationKey: string | null
    readonly dueAt: string | null
    readonly viaGateway?: boolean | undefined
    readonly eventScopeId?: string | undefined
  }
  | { readonly type: "BoundaryClosed"; readonly hostTokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  | {
    readonly type: "BoundaryTriggered"
    readonly hostTokenId: string
    readonly nodeId: string
    readonly subscriptionId: string
    readonly interrupting: boolean
    readonly variables: Readonly<Record<string, unknown>>
  }
  | { readonly type: "TimerScheduled"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string; readonly dueAt: string }
  | { readonly type: "TimerFired"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  | { readonly type: "TimerCanceled"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  | { readonly type: "ConditionSubscribed"; readonly tokenId: string; readonly nodeId: string }
  | { readonly type: "ConditionTriggered"; readonly tokenId: string; readonly nodeId: string }
  | { readonly type: "SignalThrown"; readonly tokenId: string; readonly nodeId: string; readonly signalName: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "SignalSubscriptionOpened"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string; readonly signalName: string }
  | { readonly type: "SignalTriggered"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string; readonly variables: Readonly<Record<string, unknown>> }
  | { readonly type: "SignalSubscriptionClosed"; readonly tokenId: string; readonly nodeId: string; readonly subscriptionId: string }
  | {
    readonly type: "IncidentRaised"
    readonly incidentId: string
    readonly tokenId: string
    readonly nodeId: string
    readonly incidentType: string
    readonly message: string
    readonly jobId?: string | undefined
  }
  /** A worker reported a technical failure: the job waits for `retryAt`, or with no retries left an incident follows. */
  | {
    readonly type: "JobFailed"
    readonly tokenId: string
    readonly nodeId: string
    readonly jobId: string
    readonly retries: number
    readonly errorMessage: string
    readonly retryAt: string | null
  }
  /** The job has `retries` again and the token waits for it (after an incident, it is activatable again). */
  | { readonly type: "JobRetriesUpdated"; readonly tokenId: string; readonly nodeId: string; readonly jobId: string; readonly retries: number }
  /** An incident was resolved by running its node again: the token is back at the start of the node. */
  | { readonly type: "NodeRetried"; readonly tokenId: string; readonly nodeId: string; readonly incidentId: string }
  /** An incident was resolved by going past its node without running it. */
  | { readonly type: "NodeSkipped"; readonly tokenId: string; readonly nodeId: string; readonly incidentId: string }
  | { readonly type: "IncidentResolved"; readonly incidentId: string; readonly nodeId: string }
  /** An escalation was thrown; `caughtBy` is the boundary or event-subprocess start event that caught it, if any. */
  | { readonly type: "EscalationThrown"; readonly tokenId: string; readonly nodeId: string; readonly escalationCode: string; readonly caughtBy: string | null }
  | { readonly type: "TokenMoved"; readonly tokenId: string; readonly nodeId: string; readonly targetNodeId: string }
  | { readonly type: "InstanceMigrated"; readonly targetDeploymentId: string; readonly mappings: Readonly<Record<string, string>> }
  /** Migration: the token now stands at the mapped node of the target version (and so do the scopes it hosts). */
  | { readonly type: "TokenMigrated"; readonly tokenId: string; readonly nodeId: string; readonly sourceNodeId: string }
  | { readonly type: "CommandDeferred"; readonly command: InstanceCommand }
  | { readonly type: "DeferredCommandsReleased" }
  | { readonly type: "InstanceSuspended" }
  | { readonly type: "InstanceResumed" }
  | { readonly type: "InstanceCompleted" }
  | { readonly type: "InstanceCanceled" }

export const initialState = (instanceId: string): InstanceState => ({
  instanceId,
  status: "ACTIVE",
  variables: {},
  variablesVersion: 0,
  scopes: {},
  nodeVariables: {},
  tokens: {},
  incidents: {},
  deferred: [],
  eventCount: 0
})

const withToken = (state: InstanceState, token: Token): InstanceState => ({ ...state, tokens: { ...state.tokens, [token.id]: token } })
const withoutToken = (state: InstanceState, tokenId: string): InstanceState => {
  const { [tokenId]: _, ...tokens } = state.tokens
  return { ...state, tokens }
}
const waiting = (state: InstanceState, tokenId: string, wait: Wait | null): InstanceState => {
  const token = state.tokens[tokenId]
  return token === undefined ? state : withToken(state, { ...token, wait })
}

const mutate = (state: InstanceState, event: InstanceEvent): InstanceState => {
  switch (event.type) {
    case "InstanceStarted":
      return { ...state, status: "ACTIVE", variables: { ...event.variables }, variablesVersion: 1, ...(event.called === true ? { called: true } : {}) }
    case "ElementActivated":
      return withToken(state, { id: event.tokenId, nodeId: event.nodeId, scopeId: event.scopeId, viaFlow: event.viaFlow, wait: null })
    case "ElementCompleted":
    case "ElementTerminated":
      return withoutToken(state, event.tokenId)
    case "FlowTaken":
      return state
    case "VariablesSet": {
      const scope = state.scopes[event.scopeId]
      return scope === undefined
        ? { ...state, variables: { ...state.variables, ...event.variables }, variablesVersion: state.variablesVersion + 1 }
        : {
          ...state,
          scopes: { ...state.scopes, [scope.id]: { ...scope, variables: { ...scope.variables, ...event.variables } } },
          variablesVersion: state.variablesVersion + 1
        }
    }
    case "VariableRemoved": {
      const scope = state.scopes[event.scopeId]
      if (scope === undefined) {
        const { [event.name]: _, ...variables } = state.variables
        return { ...state, variables, variablesVersion: state.variablesVersion + 1 }
      }
      const { [event.name]: _, ...variables } = scope.variables
      return { ...state, scopes: { ...state.scopes, [scope.id]: { ...scope, variables } }, variablesVersion: state.variablesVersion + 1 }
    }
    case "NodeVariablesSet":
      return {
        ...state,
        nodeVariables: { ...state.nodeVariables, [event.nodeId]: { ...state.nodeVariables[event.nodeId], ...event.variables } }
      }
    case "ScopeOpened":
      return {
        ...waiting(state, event.tokenId, { kind: "subprocess", scopeId: event.scopeId }),
        scopes: {
          ...state.scopes,
          [event.scopeId]: { id: event.scopeId, parentId: event.parentScopeId, nodeId: event.nodeId, tokenId: event.tokenId, variables: event.variables }
        }
      }
    case "ScopeClosed": {
      const { [event.scopeId]: _, ...scopes } = state.scopes
      const scope = state.scopes[event.scopeId]
      return scope === undefined ? { ...state, scopes } : { ...waiting({ ...state, scopes }, scope.tokenId, null) }
    }
    case "JobCreated":
      return waiting(state, event.tokenId, { kind: "job", jobId: event.jobId })
    case "UserTaskCreated":
      return waiting(state, event.tokenId, { kind: "userTask", taskId: event.taskId })
    case "JobCompleted":
    case "JobCanceled":
    case "JobErrorThrown":
    case "UserTaskCompleted":
    case "UserTaskCanceled":
      return waiting(state, event.tokenId, null)
    case "JoinArrived":
      return waiting(state, event.tokenId, { kind: "join" })
    case "MultiInstanceStarted":
      return {
        ...waiting(state, event.tokenId, { kind: "multiInstance", scopeId: event.scopeId }),
        scopes: {
          ...state.scopes,
          [event.scopeId]: {
            id: event.scopeId,
            parentId: event.parentScopeId,
            nodeId: event.nodeId,
            tokenId: event.tokenId,
            variables: event.variables,
            loop: { items: event.items, sequential: event.sequential, nextIndex: 0, completed: 0 }
          }
        }
      }
    case "IterationStarted": {
      const body = state.scopes[event.bodyScopeId]!
      return withToken({
        ...state,
        scopes: {
          ...state.scopes,
          [body.id]: { ...body, loop: { ...body.loop!, nextIndex: event.index + 1 } },
          [event.scopeId]: { id: event.scopeId, parentId: body.id, nodeId: event.nodeId, tokenId: event.tokenId, variables: event.variables }
        }
      }, { id: event.tokenId, nodeId: event.nodeId, scopeId: event.scopeId, viaFlow: null, wait: null, loop: { bodyScopeId: body.id, index: event.index } })
    }
    case "IterationCompleted": {
      const body = state.scopes[event.bodyScopeId]!
      const { [event.scopeId]: _, ...scopes } = state.scopes
      return withoutToken({ ...state, scopes: { ...scopes, [body.id]: { ...body, loop: { ...body.loop!, completed: body.loop!.completed + 1 } } } }, event.tokenId)
    }
    case "DecisionRequested":
      return waiting(state, event.tokenId, { kind: "decision", evaluationId: event.evaluationId })
    case "DecisionEvaluated":
      return waiting(state, event.tokenId, null)
    case "ChildInstanceRequested":
      return waiting(state, event.tokenId, { kind: "child", childInstanceId: event.childInstanceId })
    case "ChildInstanceCompleted":
    case "ChildInstanceCancelRequested":
    case "ChildErrorReceived":
      return waiting(state, event.tokenId, null)
    case "MessageSubscriptionOpened":
      return waiting(state, event.tokenId, { kind: "message", subscriptionId: event.subscriptionId })
    case "MessageCorrelated":
    case "MessageSubscriptionClosed":
    case "SignalTriggered":
    case "SignalSubscriptionClosed":
    case "TimerFired":
    case "TimerCanceled":
      return waiting(state, event.tokenId, null)
    case "TimerScheduled":
      return waiting(state, event.tokenId, { kind: "timer", subscriptionId: event.subscriptionId })
    case "BoundaryOpened":
      return {
        ...state,
        boundaries: {
          ...state.boundaries,
          [event.subscriptionId]: {
            subscriptionId: event.subscriptionId,
            hostTokenId: event.hostTokenId,
            nodeId: event.nodeId,
            kind: event.kind,
            ...(event.viaGateway === true ? { viaGateway: true } : {}),
            ...(event.eventScopeId === undefined ? {} : { eventScopeId: event.eventScopeId })
          }
        }
      }
    case "BoundaryClosed": {
      const { [event.subscriptionId]: _, ...boundaries } = state.boundaries ?? {}
      return { ...state, boundaries }
    }
    case "BoundaryTriggered":
    case "ErrorCaught":
    case "JobFailed":
    case "NodeSkipped":
      return state
    case "JobRetriesUpdated":
      return waiting(state, event.tokenId, { kind: "job", jobId: event.jobId })
    case "NodeRetried":
      return waiting(state, event.tokenId, null)
    case "SignalThrown":
    case "EscalationThrown":
    case "ErrorPropagated":
    case "EscalationPropagated":
    case "TokenMoved":
    case "InstanceMigrated":
      return state
    case "TokenMigrated": {
      const token = state.tokens[event.tokenId]
      if (token === undefined) return state
      const scopes = Object.fromEntries(Object.entries(state.scopes).map(([id, scope]) => [id, scope.tokenId === token.id ? { ...scope, nodeId: event.nodeId } : scope]))
      return withToken({ ...state, scopes }, { ...token, nodeId: event.nodeId })
    }
    case "ConditionSubscribed":
      return waiting(state, event.tokenId, { kind: "condition" })
    case "ConditionTriggered":
      return waiting(state, event.tokenId, null)
    case "SignalSubscriptionOpened":
      return waiting(state, event.tokenId, { kind: "signal", subscriptionId: event.subscriptionId })
    case "IncidentRaised":
      return {
        ...waiting(state, event.tokenId, { kind: "incident", incidentId: event.incidentId }),
        incidents: {
          ...state.incidents,
          [event.incidentId]: {
            id: event.incidentId,
            tokenId: event.tokenId,
            nodeId: event.nodeId,
            type: event.incidentType,
            message: event.message,
            ...(event.jobId === undefined ? {} : { jobId: event.jobId })
          }
        }
      }
    case "IncidentResolved": {
      const { [event.incidentId]: _, ...incidents } = state.incidents
      return { ...state, incidents }
    }
    case "CommandDeferred":
      return { ...state, deferred: [...state.deferred, event.command] }
    case "DeferredCommandsReleased":
      return { ...state, deferred: [] }
    case "InstanceSuspended":
      return { ...state, status: "SUSPENDED" }
    case "InstanceResumed":
      return { ...state, status: "ACTIVE" }
    case "InstanceCompleted":
      return { ...state, status: "COMPLETED", tokens: {}, scopes: {}, boundaries: {} }
    case "InstanceCanceled":
      return { ...state, status: "CANCELED", tokens: {}, scopes: {}, boundaries: {} }
  }
}

export const apply = (state: InstanceState, event: InstanceEvent): InstanceState => ({ ...mutate(state, event), eventCount: state.eventCount + 1 })

export const replay = (instanceId: string, events: ReadonlyArray<InstanceEvent>): InstanceState => events.reduce(apply, initialState(instanceId))

/** The variables visible in a scope: the root's, overridden by each scope on the way down to it. */
export const visibleVariables = (state: InstanceState, scopeId: string): Record<string, unknown> => {
  const chain: Array<Scope> = []
  for (let scope = state.scopes[scopeId]; scope !== undefined; scope = state.scopes[scope.parentId]) chain.unshift(scope)
  return Object.assign({}, state.variables, ...chain.map((scope) => scope.variables))
}

/** Each visible variable with the scope it was found in (the innermost one that has it). */
export const variablesWithScope = (state: InstanceState, scopeId: string): Array<{ name: string; value: unknown; scopeId: string }> => {
  const found = new Map<string, { name: string; value: unknown; scopeId: string }>()
  for (let scope = state.scopes[scopeId]; scope !== undefined; scope = state.scopes[scope.parentId]) {
    for (const [name, value] of Object.entries(scope.variables)) if (!found.has(name)) found.set(name, { name, value, scopeId: scope.id })
  }
  for (const [name, value] of Object.entries(state.variables)) if (!found.has(name)) found.set(name, { name, value, scopeId: state.instanceId })
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name))
}

// ProcessEngine over the pure core (src/engine): runs a command, and derives from its events the history entries and
// the projection changes (jobs, tasks, incidents) the host writes in the same transaction.
import { Layer } from "effect"
import { execute, type ExecuteResult, migrate } from "../engine/Execute.ts"
import { planMigration } from "../engine/Migration.ts"
import { simulate } from "../engine/Simulator.ts"
import { type InstanceEvent, type InstanceState, replay, variablesWithScope } from "../engine/InstanceState.ts"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { type EngineOutcome, type EngineRejection, type HistoryEvent, ProcessEngine, type ProjectionChange } from "./ProcessEngine.ts"

const historyOf = (event: InstanceEvent): HistoryEvent => {
  const { type, ...payload } = event
  const record = payload as Record<string, unknown>
  return {
    type,
    nodeId: typeof record["nodeId"] === "string" ? record["nodeId"] : null,
    tokenId: typeof record["tokenId"] === "string" ? record["tokenId"] : null,
    payload: record
  }
}

/** The projection row of an opened message, signal or timer subscription. */
const subscriptionOpened = (
  subscriptionId: string,
  nodeId: string,
  elementInstanceId: string,
  subscriptionKind: "MESSAGE" | "SIGNAL" | "TIMER",
  name: string | null,
  correlationKey: string | null,
  dueAt: string | null
): ProjectionChange => ({ kind: "SubscriptionOpened", subscriptionId, nodeId, elementInstanceId, subscriptionKind, name, correlationKey, dueAt })

const changeOf = (event: InstanceEvent): ProjectionChange | undefined => {
  switch (event.type) {
    case "JobCreated":
      return {
        kind: "JobCreated",
        jobId: event.jobId,
        nodeId: event.nodeId,
        elementInstanceId: event.tokenId,
        jobType: event.jobType,
        retries: event.retries,
        headers: event.headers,
        variables: event.variables
      }
    case "JobCompleted":
      return { kind: "JobClosed", jobId: event.jobId, state: "COMPLETED" }
    case "JobCanceled":
      return { kind: "JobClosed", jobId: event.jobId, state: "CANCELED" }
    case "JobErrorThrown":
      return { kind: "JobClosed", jobId: event.jobId, state: "ERROR_THROWN" }
    case "JobFailed":
      return { kind: "JobFailed", jobId: event.jobId, retries: event.retries, errorMessage: event.errorMessage, retryAt: event.retryAt }
    case "JobRetriesUpdated":
      return { kind: "JobRetriesUpdated", jobId: event.jobId, retries: event.retries }
    case "UserTaskCreated":
      return {
        kind: "UserTaskCreated",
        taskId: event.taskId,
        nodeId: event.nodeId,
        elementInstanceId: event.tokenId,
        name: event.name,
        assignee: event.assignee,
        candidateGroups: event.candidateGroups,
        candidateUsers: event.candidateUsers,
        formKey: event.formKey,
        variables: event.variables
      }
    case "UserTaskCompleted":
      return { kind: "UserTaskClosed", taskId: event.taskId, state: "COMPLETED" }
    case "UserTaskCanceled":
      return { kind: "UserTaskClosed", taskId: event.taskId, state: "CANCELED" }
    case "IncidentRaised":
      return {
        kind: "IncidentRaised",
        incidentId: event.incidentId,
        nodeId: event.nodeId,
        elementInstanceId: event.tokenId,
        incidentType: event.incidentType,
        message: event.message,
        jobId: event.jobId ?? null
      }
    case "IncidentResolved":
      return { kind: "IncidentResolved", incidentId: event.incidentId }
    case "MessageSubscriptionOpened":
      return subscriptionOpened(event.subscriptionId, event.nodeId, event.tokenId, "MESSAGE", event.messageName, event.correlationKey, null)
    case "MessageCorrelated":
    case "MessageSubscriptionClosed":
    case "SignalTriggered":
    case "SignalSubscriptionClosed":
      return { kind: "SubscriptionClosed", subscriptionId: event.subscriptionId }
    case "BoundaryOpened":
      // A condition is checked by the instance itself whenever its variables change: nothing outside waits on it.
      if (event.kind === "conditional") return undefined
      return subscriptionOpened(event.subscriptionId, event.nodeId, event.hostTokenId, event.kind === "message" ? "MESSAGE" : event.kind === "signal" ? "SIGNAL" : "TIMER", event.name, event.correlationKey, event.dueAt)
    case "BoundaryClosed":
      return { kind: "SubscriptionClosed", subscriptionId: event.subscriptionId }
    case "TimerScheduled":
      return subscriptionOpened(event.subscriptionId, event.nodeId, event.tokenId, "TIMER", null, null, event.dueAt)
    case "TimerFired":
    case "TimerCanceled":
      return { kind: "SubscriptionClosed", subscriptionId: event.subscriptionId }
    case "SignalSubscriptionOpened":
      return subscriptionOpened(event.subscriptionId, event.nodeId, event.tokenId, "SIGNAL", event.signalName, null, null)
    case "TokenMigrated":
      return event.sourceNodeId === event.nodeId ? undefined : { kind: "ElementMigrated", elementInstanceId: event.tokenId, sourceNodeId: event.sourceNodeId, nodeId: event.nodeId }
    case "ErrorPropagated":
      return {
        kind: "CallerNotified",
        notification: "CHILD_ERROR",
        payload: { errorCode: event.errorCode, errorMessage: event.errorMessage, variables: event.variables }
      }
    case "EscalationPropagated":
      return { kind: "CallerNotified", notification: "CHILD_ESCALATION", payload: { escalationCode: event.escalationCode } }
    case "SignalThrown":
      return { kind: "SignalBroadcastRequested", broadcastId: `${event.tokenId}:${event.nodeId}`, signalName: event.signalName, variables: event.variables }
    case "ScopeOpened":
      return { kind: "ScopeOpened", scopeId: event.scopeId, parentScopeId: event.parentScopeId, nodeId: event.nodeId }
    case "ScopeClosed":
      return { kind: "ScopeClosed", scopeId: event.scopeId }
    case "DecisionRequested":
      return { kind: "DecisionRequested", evaluationId: event.evaluationId, decisionId: event.decisionId, variables: event.variables }
    case "ChildInstanceRequested":
      return { kind: "ChildStartRequested", childInstanceId: event.childInstanceId, nodeId: event.nodeId, processKey: event.processKey, variables: event.variables }
    case "ChildInstanceCancelRequested":
      return { kind: "ChildCancelRequested", childInstanceId: event.childInstanceId }
    default:
      return undefined
  }
}

const stateOf = (state: unknown): InstanceState => state as InstanceState

const outcomeOf = (result: ExecuteResult): EngineOutcome | EngineRejection => {
  if (!result.ok) return { _tag: "Rejection", reason: result.reason, message: result.message }
  return {
    state: result.state,
    status: result.state.status,
    variables: result.state.variables,
    variablesVersion: result.state.variablesVersion,
    openIncidents: Object.keys(result.state.incidents).length,
    events: result.events.map(historyOf),
    changes: result.events.flatMap((event) => {
      const change = changeOf(event)
      return change === undefined ? [] : [change]
    })
  }
}

export const CoreProcessEngine = {
  layer: Layer.succeed(ProcessEngine, {
    tokens: (state) =>
      Object.values(stateOf(state).tokens).map((token) => ({
        tokenId: token.id,
        nodeId: token.nodeId,
        waitingFor: token.wait === null
          ? null
          : ({ job: "JOB", userTask: "USER_TASK", join: "JOIN", message: "MESSAGE", signal: "SIGNAL", timer: "TIMER", condition: "CONDITION", incident: "INCIDENT", subprocess: "SUBPROCESS", child: "CHILD_INSTANCE", multiInstance: "MULTI_INSTANCE", decision: "DECISION" } as const)[token.wait.kind],
        jobId: token.wait?.kind === "job" ? token.wait.jobId : null,
        taskId: token.wait?.kind === "userTask" ? token.wait.taskId : null,
        incidentId: token.wait?.kind === "incident" ? token.wait.incidentId : null,
        subscriptionId: token.wait?.kind === "message" || token.wait?.kind === "signal" || token.wait?.kind === "timer" ? token.wait.subscriptionId : null,
        childInstanceId: token.wait?.kind === "child" ? token.wait.childInstanceId : null
      })),
    scopeVariables: (state, scopeId) => {
      const s = stateOf(state)
      return scopeId === s.instanceId || s.scopes[scopeId] !== undefined ? variablesWithScope(s, scopeId) : undefined
    },
    nodeVariables: (state) => stateOf(state).nodeVariables,
    snapshot: (instanceId, history) => {
      // History entries carry the whole event: its type plus its payload.
      const state = replay(instanceId, history.map((entry) => ({ ...entry.payload, type: entry.type }) as unknown as InstanceEvent))
      return {
        variables: state.variables,
        activeNodes: Object.values(state.tokens).map((t) => t.nodeId),
        status: state.status,
        variablesVersion: state.variablesVersion,
        openIncidents: Object.keys(state.incidents).length
      }
    },
    // The graphs and states were written by this engine (at deploy time and by earlier commands).
    execute: ({ graph, instanceId, state, command, now }) =>
      outcomeOf(execute(graph as ProcessGraph, instanceId, state as InstanceState | undefined, command, now)),
    simulate: (graph, input, clock) => simulate(graph as ProcessGraph, input, clock),
    planMigration: ({ source, target, state, mappings, mapEqualNodes }) =>
      planMigration(source as ProcessGraph, target as ProcessGraph, stateOf(state), mappings, mapEqualNodes),
    migrate: ({ source, target, instanceId, state, command, now }) =>
      outcomeOf(migrate(source as ProcessGraph, target as ProcessGraph, instanceId, stateOf(state), command, now))
  })
}

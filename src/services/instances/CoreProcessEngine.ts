// ProcessEngine over the pure core (src/engine): runs a command, and derives from its events the history entries; the
// host writes its projections from the events themselves (persistence/projections).
import { Layer } from "effect"
import { execute, type ExecuteResult, migrate } from "../../engine/Execute.ts"
import { type InstanceEvent, replay, variablesWithScope } from "../../engine/InstanceState.ts"
import { planMigration } from "../../engine/Migration.ts"
import { simulate } from "../../engine/Simulator.ts"
import { type EngineOutcome, type EngineRejection, type HistoryEvent, ProcessEngine } from "./ProcessEngine.ts"

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

const outcomeOf = (result: ExecuteResult): EngineOutcome | EngineRejection => {
  if (!result.ok) return { _tag: "Rejection", reason: result.reason, message: result.message, field: result.field }
  return {
    state: result.state,
    status: result.state.status,
    variables: result.state.variables,
    variablesVersion: result.state.variablesVersion,
    openIncidents: Object.keys(result.state.incidents).length,
    events: result.events.map(historyOf),
    instanceEvents: result.events
  }
}

export const CoreProcessEngine = {
  layer: Layer.succeed(ProcessEngine, {
    tokens: (state) =>
      Object.values(state.tokens).map((token) => ({
        tokenId: token.id,
        nodeId: token.nodeId,
        waitingFor: token.wait === null
          ? null
          : ({
            job: "JOB",
            userTask: "USER_TASK",
            join: "JOIN",
            message: "MESSAGE",
            signal: "SIGNAL",
            timer: "TIMER",
            condition: "CONDITION",
            incident: "INCIDENT",
            subprocess: "SUBPROCESS",
            child: "CHILD_INSTANCE",
            multiInstance: "MULTI_INSTANCE",
            decision: "DECISION",
            compensation: "COMPENSATION"
          } as const)[token.wait.kind],
        jobId: token.wait?.kind === "job" ? token.wait.jobId : null,
        taskId: token.wait?.kind === "userTask" ? token.wait.taskId : null,
        incidentId: token.wait?.kind === "incident" ? token.wait.incidentId : null,
        subscriptionId: token.wait?.kind === "message" || token.wait?.kind === "signal" || token.wait?.kind === "timer"
          ? token.wait.subscriptionId
          : null,
        childInstanceId: token.wait?.kind === "child" ? token.wait.childInstanceId : null
      })),
    scopeVariables: (state, scopeId) => {
      const s = state
      return scopeId === s.instanceId || s.scopes[scopeId] !== undefined ? variablesWithScope(s, scopeId) : undefined
    },
    nodeVariables: (state) => state.nodeVariables,
    snapshot: (instanceId, history) => {
      // History entries carry the whole event: its type plus its payload.
      const state = replay(
        instanceId,
        history.map((entry) => ({ ...entry.payload, type: entry.type }) as unknown as InstanceEvent)
      )
      return {
        variables: state.variables,
        activeNodes: Object.values(state.tokens).map((t) => t.nodeId),
        status: state.status,
        variablesVersion: state.variablesVersion,
        openIncidents: Object.keys(state.incidents).length
      }
    },
    // The graphs and states were written by this engine (at deploy time and by earlier commands).
    execute: ({ graph, instanceId, state, command, now }) => outcomeOf(execute(graph, instanceId, state, command, now)),
    simulate: (graph, input, clock) => simulate(graph, input, clock),
    planMigration: ({ source, target, state, mappings, mapEqualNodes }) =>
      planMigration(source, target, state, mappings, mapEqualNodes),
    migrate: ({ source, target, instanceId, state, command, now }) =>
      outcomeOf(migrate(source, target, instanceId, state, command, now))
  })
}

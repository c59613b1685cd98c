// Play: a process run by hand in memory, the third host of the pure core (nothing saved, no jobs or tasks anyone can
// see). Automatic elements (gateways, scripts, events that need nothing) run by themselves; each step answers one
// waiting node — completes its job or task (with the step's variables, else the session's mock for that node),
// fires its timer, delivers its message or signal, returns its call or decision — or triggers one armed event, and
// the process runs on to its next waits. A step may choose the branch a gateway takes and set variables first.
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { execute, type ExecuteResult } from "./Execute.ts"
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { InstanceState } from "./InstanceState.ts"
import { answerFor } from "./WaitAnswers.ts"

export interface PlayStep {
  /** The waiting token to answer (GET shows them); default: the first one that waits for something. */
  readonly tokenId?: string | undefined
  /** Instead: an armed boundary, event-gateway or event-subprocess event (by node id) happens. */
  readonly eventNodeId?: string | undefined
  /** Set on the instance first, and the answer's result. */
  readonly variables?: Readonly<Record<string, unknown>> | undefined
  /** Gateway node id -> the outgoing flow it takes in this step. */
  readonly chooseFlows?: Readonly<Record<string, string>> | undefined
}

export type PlayOutcome =
  | {
    readonly ok: true
    readonly state: InstanceState
    readonly answered: string
    readonly passed: ReadonlyArray<string>
  }
  | {
    readonly ok: false
    readonly reason: "NOT_FOUND" | "INVALID_STATE" | "INVALID_ARGUMENT" | "CONFLICT" | "UNPROCESSABLE"
    readonly message: string
  }

const outcomeOf = (result: ExecuteResult, answered: string): PlayOutcome =>
  result.ok
    ? {
      ok: true,
      state: result.state,
      answered,
      passed: result.events.flatMap((event) => (event.type === "ElementCompleted" ? [event.nodeId] : []))
    }
    : result

export const playStart = (
  graph: ProcessGraph,
  sessionId: string,
  variables: Readonly<Record<string, unknown>>,
  chooseFlows: Readonly<Record<string, string>> = {}
): PlayOutcome =>
  outcomeOf(execute(graph, sessionId, undefined, { type: "StartInstance", variables }, 0, chooseFlows), graph.key)

/** A chosen flow that is not an outgoing flow of its gateway, as a refusal (undefined: every choice fits). */
const wrongChoiceOf = (graph: ProcessGraph, chosen: Readonly<Record<string, string>>): PlayOutcome | undefined => {
  const wrong = Object.entries(chosen).find(([gatewayId, flowId]) =>
    !(graph.nodes[gatewayId]?.outgoing ?? []).includes(flowId)
  )
  return wrong === undefined ? undefined : {
    ok: false,
    reason: "INVALID_ARGUMENT",
    message: `chooseFlows: ${wrong[1]} is not an outgoing flow of ${wrong[0]}`
  }
}

export const playStep = (
  graph: ProcessGraph,
  sessionId: string,
  state: InstanceState,
  step: PlayStep,
  mocks: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  now: number
): PlayOutcome => {
  if (state.status !== "ACTIVE") {
    return { ok: false, reason: "INVALID_STATE", message: `the played instance is ${state.status.toLowerCase()}` }
  }
  const chosen = step.chooseFlows ?? {}
  const wrongChoice = wrongChoiceOf(graph, chosen)
  if (wrongChoice !== undefined) return wrongChoice
  let current = state
  const variables = step.variables ?? {}
  const run = (command: InstanceCommand, answered: string): PlayOutcome =>
    outcomeOf(execute(graph, sessionId, current, command, now, chosen), answered)

  if (step.eventNodeId !== undefined) {
    const armed = Object.values(current.boundaries ?? {}).find((b) => b.nodeId === step.eventNodeId)
    if (armed === undefined) {
      return { ok: false, reason: "CONFLICT", message: `eventNodeId: no armed event at ${step.eventNodeId}` }
    }
    const command: InstanceCommand = armed.kind === "timer"
      ? { type: "FireTimer", subscriptionId: armed.subscriptionId }
      : armed.kind === "signal"
      ? { type: "TriggerSignal", subscriptionId: armed.subscriptionId, variables }
      : armed.kind === "message"
      ? { type: "CorrelateMessage", subscriptionId: armed.subscriptionId, variables }
      : { type: "SetVariables", variables }
    return run(command, armed.nodeId)
  }

  const tokens = Object.values(current.tokens)
  const token = step.tokenId === undefined
    ? tokens.find((t) => answerFor(t, {}) !== undefined || t.wait?.kind === "condition")
    : tokens.find((t) => t.id === step.tokenId)
  if (token === undefined) {
    return step.tokenId === undefined
      ? {
        ok: false,
        reason: "CONFLICT",
        message: "no token waits for something a step can give (an incident, or only joins)"
      }
      : { ok: false, reason: "INVALID_ARGUMENT", message: `tokenId: token ${step.tokenId} is not in the session` }
  }
  if (token.wait?.kind === "incident") {
    return {
      ok: false,
      reason: "CONFLICT",
      message: `token ${token.id} at ${token.nodeId} has an incident: ${
        current.incidents[token.wait.incidentId]?.message ?? ""
      }`
    }
  }
  // A conditional catch event passes once variables make its condition true.
  if (token.wait?.kind === "condition") return run({ type: "SetVariables", variables }, token.nodeId)
  const result = { ...mocks[token.nodeId], ...variables }
  const answer = answerFor(token, result)
  if (answer === undefined) {
    return {
      ok: false,
      reason: "CONFLICT",
      message: `token ${token.id} at ${token.nodeId} waits for nothing a step can give`
    }
  }
  if (Object.keys(variables).length > 0 && answer.type === "FireTimer") {
    const set = execute(graph, sessionId, current, { type: "SetVariables", variables }, now, chosen)
    if (!set.ok) return set
    current = set.state
  }
  return run(answer, token.nodeId)
}

// What the simulated world answers a waiting instance with (Simulator.ts): a configured armed event, a job, task, call
// or decision answered with its configured results, the earliest timer (the simulated clock moves to it), a message or
// signal at a catch event.
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { InstanceState, Token } from "./InstanceState.ts"
import { answerFor } from "./WaitAnswers.ts"

export interface SimulationInput {
  readonly runs: number
  /** Start variables of every run; `variableSets` are merged over them, one per run in turn. */
  readonly variables: Readonly<Record<string, unknown>>
  readonly variableSets: ReadonlyArray<Readonly<Record<string, unknown>>>
  /** Results by node id: the variables a job, task, call activity, decision or message at that node answers with. */
  readonly results: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** At an event-based gateway or an activity with boundary events: which armed event happens (by node id). */
  readonly events: ReadonlyArray<string>
  readonly maxStepsPerRun: number
}

export type Next = { readonly command: InstanceCommand; readonly nodeId: string; readonly at: number }
type Results = (nodeId: string) => Readonly<Record<string, unknown>>

/** A configured armed event (in `events` order) that is armed now. */
const configuredEvent = (
  state: InstanceState,
  input: SimulationInput,
  now: number,
  dueTimes: ReadonlyMap<string, number>,
  results: Results
): Next | undefined => {
  const armed = Object.values(state.boundaries ?? {})
  for (const eventNodeId of input.events) {
    const event = armed.find((b) => b.nodeId === eventNodeId)
    if (event === undefined) continue
    if (event.kind === "timer") {
      return {
        command: { type: "FireTimer", subscriptionId: event.subscriptionId },
        nodeId: event.nodeId,
        at: dueTimes.get(event.subscriptionId) ?? now
      }
    }
    if (event.kind === "message") {
      return {
        command: { type: "CorrelateMessage", subscriptionId: event.subscriptionId, variables: results(event.nodeId) },
        nodeId: event.nodeId,
        at: now
      }
    }
    if (event.kind === "signal") {
      return {
        command: { type: "TriggerSignal", subscriptionId: event.subscriptionId, variables: results(event.nodeId) },
        nodeId: event.nodeId,
        at: now
      }
    }
  }
  return undefined
}

/** The answer to a token waiting for a job, task, called process or decision. */
/** The simulator answers jobs, user tasks, called processes and decisions itself; timers and events it fires apart. */
const SELF_ANSWERED: ReadonlySet<string> = new Set(["job", "userTask", "child", "decision"])
const answer = (token: Token, results: Results): InstanceCommand | undefined =>
  token.wait !== null && SELF_ANSWERED.has(token.wait.kind)
    ? answerFor(token, results(token.nodeId))
    : undefined

/** The earliest timer a catch event waits for (the clock moves to it). */
const earliestTimer = (
  tokens: ReadonlyArray<Token>,
  now: number,
  dueTimes: ReadonlyMap<string, number>
): Next | undefined => {
  const timers: Array<{ subscriptionId: string; nodeId: string; dueAt: number }> = []
  for (const token of tokens) {
    if (token.wait?.kind === "timer") {
      timers.push({
        subscriptionId: token.wait.subscriptionId,
        nodeId: token.nodeId,
        dueAt: dueTimes.get(token.wait.subscriptionId) ?? now
      })
    }
  }
  const earliest = timers.sort((a, b) => a.dueAt - b.dueAt)[0]
  return earliest === undefined ? undefined : {
    command: { type: "FireTimer", subscriptionId: earliest.subscriptionId },
    nodeId: earliest.nodeId,
    at: earliest.dueAt
  }
}

/** A message or signal for a catch event that waits for one. */
const caughtEvent = (tokens: ReadonlyArray<Token>, now: number, results: Results): Next | undefined => {
  for (const token of tokens) {
    const wait = token.wait
    if (wait?.kind === "message" || wait?.kind === "signal") {
      const type = wait.kind === "message" ? "CorrelateMessage" : "TriggerSignal"
      return {
        command: { type, subscriptionId: wait.subscriptionId, variables: results(token.nodeId) },
        nodeId: token.nodeId,
        at: now
      }
    }
  }
  return undefined
}

/** An event-based gateway with nothing configured: its first event happens. */
const gatewayEvent = (
  state: InstanceState,
  now: number,
  dueTimes: ReadonlyMap<string, number>,
  results: Results
): Next | undefined => {
  const gateway = Object.values(state.boundaries ?? {}).find((b) => b.viaGateway === true)
  if (gateway === undefined) return undefined
  const at = gateway.kind === "timer" ? dueTimes.get(gateway.subscriptionId) ?? now : now
  const command: InstanceCommand = gateway.kind === "timer"
    ? { type: "FireTimer", subscriptionId: gateway.subscriptionId }
    : gateway.kind === "signal"
    ? { type: "TriggerSignal", subscriptionId: gateway.subscriptionId, variables: results(gateway.nodeId) }
    : { type: "CorrelateMessage", subscriptionId: gateway.subscriptionId, variables: results(gateway.nodeId) }
  return { command, nodeId: gateway.nodeId, at }
}

/**
 * What the simulated world does next: a configured armed event first (in `events` order), then any job, task, call or
 * decision answers, then the earliest timer (the clock moves to it), then messages and signals at catch events.
 */
export const nextCommand = (
  state: InstanceState,
  input: SimulationInput,
  now: number,
  dueTimes: ReadonlyMap<string, number>
): Next | undefined => {
  const results: Results = (nodeId) => input.results[nodeId] ?? {}
  const configured = configuredEvent(state, input, now, dueTimes, results)
  if (configured !== undefined) return configured
  const tokens: ReadonlyArray<Token> = Object.values(state.tokens)
  for (const token of tokens) {
    const command = answer(token, results)
    if (command !== undefined) return { command, nodeId: token.nodeId, at: now }
  }
  return earliestTimer(tokens, now, dueTimes) ?? caughtEvent(tokens, now, results) ??
    gatewayEvent(state, now, dueTimes, results)
}

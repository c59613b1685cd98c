// The simulator behind POST /deployments/{id}/simulate: many in-memory runs of the pure core, nothing saved. Each run
// starts an instance and answers whatever it waits for — jobs and tasks complete (with configured results), timers
// fire on a simulated clock, messages and signals arrive, called processes and decisions answer with configured
// results — until it ends, raises an incident, waits for something the simulator cannot give, or exceeds its step
// budget. The report counts how often each node ran and each flow was taken (coverage) and how long runs took.
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { derivedId, execute } from "./Execute.ts"
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { InstanceState, Token } from "./InstanceState.ts"

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

export type RunOutcome = "COMPLETED" | "INCIDENT" | "STUCK" | "STEP_LIMIT"

export interface SimulationReport {
  readonly runs: number
  readonly outcomes: Readonly<Record<RunOutcome, number>>
  readonly nodeCoverage: { readonly covered: number; readonly total: number; readonly ratio: number }
  readonly flowCoverage: { readonly covered: number; readonly total: number; readonly ratio: number }
  readonly nodes: ReadonlyArray<{ readonly nodeId: string; readonly type: string; readonly activations: number }>
  readonly flows: ReadonlyArray<
    { readonly flowId: string; readonly source: string; readonly target: string; readonly taken: number }
  >
  readonly uncoveredFlows: ReadonlyArray<string>
  /** Why runs stopped short, with how many runs each: the node and what it waited for or the incident's message. */
  readonly stops: ReadonlyArray<
    { readonly nodeId: string; readonly outcome: RunOutcome; readonly reason: string; readonly runs: number }
  >
  readonly timings: {
    readonly wallMillis: number
    readonly perRunMillis: { readonly avg: number; readonly p50: number; readonly p95: number; readonly max: number }
    /** Process time in the simulated clock (timers advance it), from start to end of completed runs. */
    readonly simulatedMillis: { readonly avg: number; readonly max: number }
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
const round = (n: number) => Math.round(n * 1000) / 1000

/** `clock` measures wall time (an input: the core reads no clock). */
export const simulate = (graph: ProcessGraph, input: SimulationInput, clock: () => number): SimulationReport => {
  const activations = new Map<string, number>()
  const taken = new Map<string, number>()
  const outcomes: Record<RunOutcome, number> = { COMPLETED: 0, INCIDENT: 0, STUCK: 0, STEP_LIMIT: 0 }
  const stops = new Map<string, { nodeId: string; outcome: RunOutcome; reason: string; runs: number }>()
  const wall: Array<number> = []
  const simulated: Array<number> = []
  const began = clock()

  for (let run = 0; run < input.runs; run++) {
    const runBegan = clock()
    const instanceId = derivedId("simulation", String(run))
    const variables = {
      ...input.variables,
      ...(input.variableSets.length === 0 ? {} : input.variableSets[run % input.variableSets.length])
    }
    const startAt = 0
    let now = startAt
    let state: InstanceState | undefined
    // Due times of scheduled timers, from the events that scheduled them.
    const dueTimes = new Map<string, number>()
    const stop = (outcome: RunOutcome, nodeId: string, reason: string) => {
      outcomes[outcome]++
      const key = `${outcome}\u0000${nodeId}\u0000${reason}`
      const seen = stops.get(key) ?? { nodeId, outcome, reason, runs: 0 }
      stops.set(key, { ...seen, runs: seen.runs + 1 })
    }
    const apply = (command: InstanceCommand): boolean => {
      const result = execute(graph, instanceId, state, command, now)
      if (!result.ok) return false
      state = result.state
      for (const event of result.events) {
        if (event.type === "ElementActivated") activations.set(event.nodeId, (activations.get(event.nodeId) ?? 0) + 1)
        if (event.type === "FlowTaken") taken.set(event.flowId, (taken.get(event.flowId) ?? 0) + 1)
        if (event.type === "TimerScheduled") dueTimes.set(event.subscriptionId, Date.parse(event.dueAt))
        if (event.type === "BoundaryOpened" && event.dueAt !== null) {
          dueTimes.set(event.subscriptionId, Date.parse(event.dueAt))
        }
      }
      return true
    }
    if (!apply({ type: "StartInstance", variables })) {
      stop("STUCK", graph.key, "the process cannot start by a none start event")
      continue
    }
    let steps = 0
    for (;;) {
      const current: InstanceState = state!
      if (current.status === "COMPLETED" || current.status === "CANCELED") {
        outcomes.COMPLETED++
        simulated.push(now - startAt)
        break
      }
      const incident = Object.values(current.incidents)[0]
      if (incident !== undefined) {
        stop("INCIDENT", incident.nodeId, incident.message)
        break
      }
      if (++steps > input.maxStepsPerRun) {
        stop(
          "STEP_LIMIT",
          Object.values(current.tokens)[0]?.nodeId ?? graph.key,
          `more than ${input.maxStepsPerRun} steps (a loop?)`
        )
        break
      }
      const next = nextCommand(current, input, now, dueTimes)
      if (next === undefined) {
        const waiting = Object.values(current.tokens).find((t) =>
          t.wait !== null && t.wait.kind !== "subprocess" && t.wait.kind !== "multiInstance" && t.wait.kind !== "join"
        )
        stop(
          "STUCK",
          waiting?.nodeId ?? graph.key,
          waiting === undefined ? "nothing to answer" : `waits for ${waiting.wait!.kind}`
        )
        break
      }
      now = Math.max(now, next.at)
      if (!apply(next.command)) {
        stop("STUCK", next.nodeId, `the simulated ${next.command.type} was refused`)
        break
      }
    }
    wall.push(clock() - runBegan)
  }

  const nodes = Object.values(graph.nodes).map((node) => ({
    nodeId: node.id,
    type: node.type,
    activations: activations.get(node.id) ?? 0
  }))
  const flows = Object.values(graph.flows).map((flow) => ({
    flowId: flow.id,
    source: flow.source,
    target: flow.target,
    taken: taken.get(flow.id) ?? 0
  }))
  const coverage = (covered: number, total: number) => ({
    covered,
    total,
    ratio: total === 0 ? 1 : round(covered / total)
  })
  const sortedWall = [...wall].sort((a, b) => a - b)
  return {
    runs: input.runs,
    outcomes,
    nodeCoverage: coverage(nodes.filter((n) => n.activations > 0).length, nodes.length),
    flowCoverage: coverage(flows.filter((f) => f.taken > 0).length, flows.length),
    nodes,
    flows,
    uncoveredFlows: flows.filter((f) => f.taken === 0).map((f) => f.flowId),
    stops: [...stops.values()].sort((a, b) => b.runs - a.runs),
    timings: {
      wallMillis: round(clock() - began),
      perRunMillis: {
        avg: round(wall.reduce((a, b) => a + b, 0) / Math.max(1, wall.length)),
        p50: round(percentile(sortedWall, 0.5)),
        p95: round(percentile(sortedWall, 0.95)),
        max: round(sortedWall[sortedWall.length - 1] ?? 0)
      },
      simulatedMillis: {
        avg: round(simulated.reduce((a, b) => a + b, 0) / Math.max(1, simulated.length)),
        max: simulated.reduce((a, b) => Math.max(a, b), 0)
      }
    }
  }
}

/**
 * What the simulated world does next: a configured armed event first (in `events` order), then any job, task, call or
 * decision answers, then the earliest timer (the clock moves to it), then messages and signals at catch events.
 */
const nextCommand = (
  state: InstanceState,
  input: SimulationInput,
  now: number,
  dueTimes: ReadonlyMap<string, number>
): { readonly command: InstanceCommand; readonly nodeId: string; readonly at: number } | undefined => {
  const results = (nodeId: string) => input.results[nodeId] ?? {}
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
  const tokens: ReadonlyArray<Token> = Object.values(state.tokens)
  for (const token of tokens) {
    const wait = token.wait
    if (wait === null) continue
    switch (wait.kind) {
      case "job":
        return {
          command: { type: "CompleteJob", jobId: wait.jobId, variables: results(token.nodeId) },
          nodeId: token.nodeId,
          at: now
        }
      case "userTask":
        return {
          command: { type: "CompleteUserTask", taskId: wait.taskId, variables: results(token.nodeId) },
          nodeId: token.nodeId,
          at: now
        }
      case "child":
        return {
          command: {
            type: "ChildInstanceCompleted",
            childInstanceId: wait.childInstanceId,
            variables: results(token.nodeId)
          },
          nodeId: token.nodeId,
          at: now
        }
      case "decision":
        return {
          command: {
            type: "DecisionEvaluated",
            evaluationId: wait.evaluationId,
            result: results(token.nodeId),
            outputs: results(token.nodeId)
          },
          nodeId: token.nodeId,
          at: now
        }
      default:
        break
    }
  }
  // Timers: waiting catch events and armed timer events (not at an event-based gateway unless configured above).
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
  if (earliest !== undefined) {
    return {
      command: { type: "FireTimer", subscriptionId: earliest.subscriptionId },
      nodeId: earliest.nodeId,
      at: earliest.dueAt
    }
  }
  for (const token of tokens) {
    if (token.wait?.kind === "message") {
      return {
        command: {
          type: "CorrelateMessage",
          subscriptionId: token.wait.subscriptionId,
          variables: results(token.nodeId)
        },
        nodeId: token.nodeId,
        at: now
      }
    }
    if (token.wait?.kind === "signal") {
      return {
        command: { type: "TriggerSignal", subscriptionId: token.wait.subscriptionId, variables: results(token.nodeId) },
        nodeId: token.nodeId,
        at: now
      }
    }
  }
  // An event-based gateway with nothing configured: its first event happens.
  const gateway = armed.find((b) => b.viaGateway === true)
  if (gateway !== undefined) {
    const at = gateway.kind === "timer" ? dueTimes.get(gateway.subscriptionId) ?? now : now
    const command: InstanceCommand = gateway.kind === "timer"
      ? { type: "FireTimer", subscriptionId: gateway.subscriptionId }
      : gateway.kind === "signal"
      ? { type: "TriggerSignal", subscriptionId: gateway.subscriptionId, variables: results(gateway.nodeId) }
      : { type: "CorrelateMessage", subscriptionId: gateway.subscriptionId, variables: results(gateway.nodeId) }
    return { command, nodeId: gateway.nodeId, at }
  }
  return undefined
}

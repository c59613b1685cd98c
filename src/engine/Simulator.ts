// The simulator behind POST /deployments/{id}/simulate: many in-memory runs of the pure core, nothing saved. Each run
// starts an instance and answers whatever it waits for — jobs and tasks complete (with configured results), timers
// fire on a simulated clock, messages and signals arrive, called processes and decisions answer with configured
// results — until it ends, raises an incident, waits for something the simulator cannot give, or exceeds its step
// budget. The report counts how often each node ran and each flow was taken (coverage) and how long runs took.
// A command that exceeds the engine's run budget (engine/RunBudget.ts: a loop without a wait state) stops its run as
// STEP_LIMIT; the whole simulation stops starting runs, and stops the run under way, once it has taken
// SIMULATION_BUDGET_MS of wall time (it runs on the node's thread), and says so (TIME_LIMIT).
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { withTotalFeelTime } from "../decision/feel/FeelBudget.ts"
import { derivedId, execute } from "./Execute.ts"
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { InstanceState } from "./InstanceState.ts"
import { nextCommand, type SimulationInput } from "./SimulatedWorld.ts"

export type { SimulationInput } from "./SimulatedWorld.ts"

export type RunOutcome = "COMPLETED" | "INCIDENT" | "STUCK" | "STEP_LIMIT" | "TIME_LIMIT"

/** Wall time one simulation may take; runs not started by then are not simulated (the report's `runs` says how many were). */
export const SIMULATION_BUDGET_MS = 3_000

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

/** What all runs add up: counts by node and flow, outcomes, stops, timings. */
interface Tally {
  readonly activations: Map<string, number>
  readonly taken: Map<string, number>
  readonly outcomes: Record<RunOutcome, number>
  readonly stops: Map<string, { nodeId: string; outcome: RunOutcome; reason: string; runs: number }>
  readonly wall: Array<number>
  readonly simulated: Array<number>
}

const newTally = (): Tally => ({
  activations: new Map(),
  taken: new Map(),
  outcomes: { COMPLETED: 0, INCIDENT: 0, STUCK: 0, STEP_LIMIT: 0, TIME_LIMIT: 0 },
  stops: new Map(),
  wall: [],
  simulated: []
})

const countStop = (tally: Tally, outcome: RunOutcome, nodeId: string, reason: string) => {
  tally.outcomes[outcome]++
  const key = `${outcome}\u0000${nodeId}\u0000${reason}`
  const seen = tally.stops.get(key) ?? { nodeId, outcome, reason, runs: 0 }
  tally.stops.set(key, { ...seen, runs: seen.runs + 1 })
}

/** One run's instance as the simulated world sees it: its state, its clock, the due times of its timers. */
interface SimulatedInstance {
  readonly graph: ProcessGraph
  readonly instanceId: string
  readonly tally: Tally
  state: InstanceState | undefined
  now: number
  /** Due times of scheduled timers, from the events that scheduled them. */
  readonly dueTimes: Map<string, number>
  /** The command refused for exceeding the engine's run budget, if one was. */
  overBudget?: { readonly nodeId: string; readonly reason: string }
  /** The wall-clock time past which the simulation stops (SIMULATION_BUDGET_MS). */
  readonly deadline: number
  readonly clock: () => number
}

/** Executes a command on the run's instance and counts what it did: false if it was refused. */
const applyCommand = (instance: SimulatedInstance, command: InstanceCommand, nodeId: string): boolean => {
  const result = execute(instance.graph, instance.instanceId, instance.state, command, instance.now)
  if (!result.ok) {
    if (result.reason === "UNPROCESSABLE") instance.overBudget = { nodeId, reason: result.message }
    return false
  }
  instance.state = result.state
  const { activations, taken } = instance.tally
  for (const event of result.events) {
    if (event.type === "ElementActivated") activations.set(event.nodeId, (activations.get(event.nodeId) ?? 0) + 1)
    if (event.type === "FlowTaken") taken.set(event.flowId, (taken.get(event.flowId) ?? 0) + 1)
    if (event.type === "TimerScheduled") instance.dueTimes.set(event.subscriptionId, Date.parse(event.dueAt))
    if (event.type === "BoundaryOpened" && event.dueAt !== null) {
      instance.dueTimes.set(event.subscriptionId, Date.parse(event.dueAt))
    }
  }
  return true
}

const stuckReason = (state: InstanceState) => {
  const waiting = Object.values(state.tokens).find((t) =>
    t.wait !== null && t.wait.kind !== "subprocess" && t.wait.kind !== "multiInstance" && t.wait.kind !== "join"
  )
  return {
    nodeId: waiting?.nodeId,
    reason: waiting === undefined ? "nothing to answer" : `waits for ${waiting.wait!.kind}`
  }
}

/**
 * A refused command's stop: TIME_LIMIT when the simulation's time ran out in it (its expressions are bounded by it),
 * STEP_LIMIT when it exceeded the engine's run budget, else STUCK for `reason`.
 */
const countRefused = (instance: SimulatedInstance, nodeId: string, reason: string) =>
  instance.clock() > instance.deadline
    ? countStop(
      instance.tally,
      "TIME_LIMIT",
      instance.graph.key,
      `the simulation took more than ${SIMULATION_BUDGET_MS} ms`
    )
    : instance.overBudget === undefined
    ? countStop(instance.tally, "STUCK", nodeId, reason)
    : countStop(instance.tally, "STEP_LIMIT", instance.overBudget.nodeId, instance.overBudget.reason)

/** One step of a started run: the command the world answers with, or why the run stops (counted in the tally). */
const step = (instance: SimulatedInstance, input: SimulationInput, steps: number): "next" | "stopped" => {
  const { graph, tally } = instance
  const current: InstanceState = instance.state!
  if (current.status === "COMPLETED" || current.status === "CANCELED") {
    tally.outcomes.COMPLETED++
    tally.simulated.push(instance.now)
    return "stopped"
  }
  const incident = Object.values(current.incidents)[0]
  if (incident !== undefined) {
    countStop(tally, "INCIDENT", incident.nodeId, incident.message)
    return "stopped"
  }
  if (instance.clock() > instance.deadline) {
    countStop(tally, "TIME_LIMIT", graph.key, `the simulation took more than ${SIMULATION_BUDGET_MS} ms`)
    return "stopped"
  }
  if (steps > input.maxStepsPerRun) {
    const nodeId = Object.values(current.tokens)[0]?.nodeId ?? graph.key
    countStop(tally, "STEP_LIMIT", nodeId, `more than ${input.maxStepsPerRun} steps (a loop?)`)
    return "stopped"
  }
  const next = nextCommand(current, input, instance.now, instance.dueTimes)
  if (next === undefined) {
    const stuck = stuckReason(current)
    countStop(tally, "STUCK", stuck.nodeId ?? graph.key, stuck.reason)
    return "stopped"
  }
  instance.now = Math.max(instance.now, next.at)
  if (!applyCommand(instance, next.command, next.nodeId)) {
    countRefused(instance, next.nodeId, `the simulated ${next.command.type} was refused`)
    return "stopped"
  }
  return "next"
}

/** Run number `run`: starts an instance (the simulated clock at 0) and answers it until it stops; false if it did not start. */
const simulateRun = (
  graph: ProcessGraph,
  input: SimulationInput,
  run: number,
  tally: Tally,
  clock: () => number,
  deadline: number
) => {
  const instance: SimulatedInstance = {
    graph,
    instanceId: derivedId("simulation", String(run)),
    tally,
    state: undefined,
    now: 0,
    dueTimes: new Map(),
    clock,
    deadline
  }
  const variables = {
    ...input.variables,
    ...(input.variableSets.length === 0 ? {} : input.variableSets[run % input.variableSets.length])
  }
  if (!applyCommand(instance, { type: "StartInstance", variables }, graph.key)) {
    countRefused(instance, graph.key, "the process cannot start by a none start event")
    return false
  }
  let steps = 0
  while (step(instance, input, ++steps) === "next");
  return true
}

const coverage = (covered: number, total: number) => ({
  covered,
  total,
  ratio: total === 0 ? 1 : round(covered / total)
})

const timings = (tally: Tally, wallMillis: number): SimulationReport["timings"] => {
  const { wall, simulated } = tally
  const sortedWall = [...wall].sort((a, b) => a - b)
  return {
    wallMillis: round(wallMillis),
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

const report = (graph: ProcessGraph, runs: number, tally: Tally, wallMillis: number): SimulationReport => {
  const nodes = Object.values(graph.nodes).map((node) => ({
    nodeId: node.id,
    type: node.type,
    activations: tally.activations.get(node.id) ?? 0
  }))
  const flows = Object.values(graph.flows).map((flow) => ({
    flowId: flow.id,
    source: flow.source,
    target: flow.target,
    taken: tally.taken.get(flow.id) ?? 0
  }))
  return {
    runs,
    outcomes: tally.outcomes,
    nodeCoverage: coverage(nodes.filter((n) => n.activations > 0).length, nodes.length),
    flowCoverage: coverage(flows.filter((f) => f.taken > 0).length, flows.length),
    nodes,
    flows,
    uncoveredFlows: flows.filter((f) => f.taken === 0).map((f) => f.flowId),
    stops: [...tally.stops.values()].sort((a, b) => b.runs - a.runs),
    timings: timings(tally, wallMillis)
  }
}

/** `clock` measures wall time (an input: the core reads no clock). */
export const simulate = (graph: ProcessGraph, input: SimulationInput, clock: () => number): SimulationReport =>
  // Its expressions together take no longer than the simulation may (a run's command stops when they do).
  withTotalFeelTime(SIMULATION_BUDGET_MS, () => {
    const tally = newTally()
    const began = clock()
    const deadline = began + SIMULATION_BUDGET_MS
    let runs = 0
    for (; runs < input.runs && clock() <= deadline; runs++) {
      const runBegan = clock()
      if (simulateRun(graph, input, runs, tally, clock, deadline)) tally.wall.push(clock() - runBegan)
    }
    return report(graph, runs, tally, clock() - began)
  })

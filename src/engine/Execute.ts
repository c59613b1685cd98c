// The pure execution core: (graph, state, command) -> events, folded through `apply`. No IO, no clock, no
// randomness: ids derive from the instance id and the event count, so the same commands give the same events.
// Tokens move as a trampoline of small steps (a work queue), never one element calling the next recursively.
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { withTotalFeelTimeOr } from "../decision/feel/FeelBudget.ts"
import { startProcess } from "./behaviours/ProcessListeners.ts"
import { CommandRun } from "./CommandRun.ts"
import type { InstanceCommand } from "./InstanceCommands.ts"
import { initialState, type InstanceEvent, type InstanceState } from "./InstanceState.ts"
import { Rejected, type RejectionReason } from "./Rejected.ts"
import { MAX_FEEL_MILLIS_PER_COMMAND, overFeelTime } from "./RunBudget.ts"
import { changingInPlace } from "./state/IdKeyed.ts"

export { derivedId } from "./DerivedId.ts"
export type { RejectionReason } from "./Rejected.ts"

export type ExecuteResult =
  | { readonly ok: true; readonly state: InstanceState; readonly events: ReadonlyArray<InstanceEvent> }
  | {
    readonly ok: false
    readonly reason: RejectionReason
    readonly message: string
    readonly field?: string | undefined
  }

const rejectionOf = (rejected: Rejected): ExecuteResult =>
  rejected.field === undefined
    ? { ok: false, reason: rejected.reason, message: rejected.message }
    : { ok: false, reason: rejected.reason, message: rejected.message, field: rejected.field }

/** A refusal thrown by the run; anything else is a bug. */
const refusal = (error: unknown): ExecuteResult => {
  if (error instanceof Rejected) return rejectionOf(error)
  throw error
}

/** A command runs within its FEEL time (all its expressions together: RunBudget.ts); past it, it is refused. */
const withinCommandBudget = (run: () => ExecuteResult): ExecuteResult =>
  changingInPlace(() => withTotalFeelTimeOr(MAX_FEEL_MILLIS_PER_COMMAND, run, () => rejectionOf(overFeelTime())))

/** Migrates an instance from the graph of its version (`source`) to the target version's graph. */
export const migrate = (
  source: ProcessGraph,
  target: ProcessGraph,
  instanceId: string,
  state: InstanceState,
  command: Extract<InstanceCommand, { type: "MigrateInstance" }>,
  now = 0
): ExecuteResult =>
  withinCommandBudget(() => {
    try {
      const run = new CommandRun(target, state, now)
      run.migrateFrom(source, command)
      run.drain()
      return { ok: true, state: run.state, events: run.events }
    } catch (error) {
      return refusal(error)
    }
  })

export const execute = (
  graph: ProcessGraph,
  instanceId: string,
  state: InstanceState | undefined,
  command: InstanceCommand,
  now = 0,
  /** Play mode only: the flow to take at these gateways. */
  chosenFlows: Readonly<Record<string, string>> = {}
): ExecuteResult =>
  withinCommandBudget(() => {
    try {
      if (state === undefined) {
        if (command.type !== "StartInstance") {
          return { ok: false, reason: "NOT_FOUND", message: `process instance ${instanceId} not found` }
        }
        const startNodeId = command.startNodeId ?? graph.startNodeIds[0]
        if (startNodeId === undefined) {
          return {
            ok: false,
            reason: "INVALID_STATE",
            message: `process ${graph.key} has no none start event: it starts only by message`
          }
        }
        const eventStart = (graph.messageStarts ?? []).some((m) => m.nodeId === startNodeId) ||
          (graph.signalStarts ?? []).some((m) => m.nodeId === startNodeId) ||
          (graph.conditionalStarts ?? []).some((m) => m.nodeId === startNodeId) ||
          (graph.timerStarts ?? []).some((m) => m.nodeId === startNodeId)
        if (!graph.startNodeIds.includes(startNodeId) && !eventStart) {
          return {
            ok: false,
            reason: "INVALID_ARGUMENT",
            message: `${startNodeId} is not a start event of process ${graph.key}`
          }
        }
        const run = new CommandRun(graph, initialState(instanceId), now, chosenFlows)
        run.emit({
          type: "InstanceStarted",
          variables: command.variables,
          ...(command.called === true ? { called: true } : {})
        })
        startProcess(run, startNodeId)
        run.drain()
        return { ok: true, state: run.state, events: run.events }
      }
      const run = new CommandRun(graph, state, now, chosenFlows)
      run.command(command)
      run.drain()
      return { ok: true, state: run.state, events: run.events }
    } catch (error) {
      return refusal(error)
    }
  })

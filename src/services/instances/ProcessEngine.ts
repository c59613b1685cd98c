// The port between the durable host (the ProcessInstance entity) and the pure execution core: the host hands over a
// compiled graph, the instance's state and a command; it gets back the new state, the history events to append and
// the projection changes to write, all in one transaction. Nothing here does IO.
import { Context } from "effect"

export type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import type { InstanceState } from "../../engine/InstanceState.ts"
import type { SimulationInput, SimulationReport } from "../../engine/Simulator.ts"

export type { EngineOutcome, HistoryEvent, InstanceStatus } from "../../engine/EngineOutcome.ts"
import type { EngineOutcome, HistoryEvent, InstanceStatus } from "../../engine/EngineOutcome.ts"

/** A command that does not apply to the instance as it is: nothing changes (4xx for the caller). */
export interface EngineRejection {
  readonly _tag: "Rejection"
  readonly reason: "INVALID_STATE" | "NOT_FOUND" | "INVALID_ARGUMENT" | "CONFLICT" | "UNPROCESSABLE"
  readonly message: string
  /** The command's field at fault, when one is. */
  readonly field?: string | undefined
}

/** A token as the API shows it: where it is parked and on what. */
export interface TokenView {
  readonly tokenId: string
  readonly nodeId: string
  readonly waitingFor:
    | "JOB"
    | "USER_TASK"
    | "JOIN"
    | "MESSAGE"
    | "SIGNAL"
    | "TIMER"
    | "CONDITION"
    | "SUBPROCESS"
    | "CHILD_INSTANCE"
    | "MULTI_INSTANCE"
    | "DECISION"
    | "INCIDENT"
    | "COMPENSATION"
    | null
  readonly jobId: string | null
  readonly taskId: string | null
  readonly incidentId: string | null
  readonly subscriptionId: string | null
  readonly childInstanceId: string | null
}

/** The instance as of one history event. */
export interface Snapshot {
  readonly variables: Readonly<Record<string, unknown>>
  readonly activeNodes: ReadonlyArray<string>
  readonly status: InstanceStatus
  readonly variablesVersion: number
  readonly openIncidents: number
}

export interface ProcessEngineShape {
  readonly tokens: (state: InstanceState) => ReadonlyArray<TokenView>
  /** Every variable visible from a scope, with the scope it was found in; undefined for an unknown scope. */
  readonly scopeVariables: (
    state: InstanceState,
    scopeId: string
  ) => ReadonlyArray<{ readonly name: string; readonly value: unknown; readonly scopeId: string }> | undefined
  readonly nodeVariables: (state: InstanceState) => Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** Replays history events up to and including the last one given. */
  readonly snapshot: (instanceId: string, history: ReadonlyArray<HistoryEvent>) => Snapshot
  readonly execute: (input: {
    readonly graph: ProcessGraph
    readonly instanceId: string
    /** undefined before StartInstance. */
    readonly state: InstanceState | undefined
    readonly command: InstanceCommand
    readonly now: number
  }) => EngineOutcome | EngineRejection
  /** Runs many in-memory instances of a graph (nothing saved) and reports coverage and timings. */
  readonly simulate: (graph: ProcessGraph, input: SimulationInput, clock: () => number) => SimulationReport
  /** Checks a migration of an instance (its state and version's graph) to a target version's graph. */
  readonly planMigration: (input: {
    readonly source: ProcessGraph
    readonly target: ProcessGraph
    readonly state: InstanceState
    readonly mappings: Readonly<Record<string, string>>
    readonly mapEqualNodes: boolean
  }) => { readonly ok: true; readonly mapping: Readonly<Record<string, string>> } | {
    readonly ok: false
    readonly problems: ReadonlyArray<string>
  }
  /** Applies a MigrateInstance command: the outcome's state belongs to the target graph. */
  readonly migrate: (input: {
    readonly source: ProcessGraph
    readonly target: ProcessGraph
    readonly instanceId: string
    readonly state: InstanceState
    readonly command: Extract<InstanceCommand, { type: "MigrateInstance" }>
    readonly now: number
  }) => EngineOutcome | EngineRejection
}

export class ProcessEngine extends Context.Service<ProcessEngine, ProcessEngineShape>()("flowcore/ProcessEngine") {}

export const isRejection = (value: EngineOutcome | EngineRejection): value is EngineRejection =>
  "_tag" in value && value._tag === "Rejection"

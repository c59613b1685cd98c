// What a run of one command is to the parts of the engine (elements, behaviours, commands): the instance's state, the
// events emitted so far and the queue of token steps, and every step one part may ask of another. The parts call each
// other through it, so none imports another's module; CommandRun.ts is the run, and wires each step to its module.
import type { GraphFlow, GraphNode, Mapping, MultiInstanceDefinition, ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { InstanceCommand } from "./InstanceCommands.ts"
import type { InstanceEvent } from "./state/Events.ts"
import type { Boundary, InstanceState, Token } from "./state/State.ts"

/** Where a thrown error or escalation is caught: a boundary event on a host, or an event subprocess's start. */
export type Catcher =
  | { readonly via: "boundary"; readonly host: Token; readonly nodeId: string }
  | { readonly via: "eventSubprocess"; readonly scopeId: string; readonly nodeId: string }

export interface Run {
  /** The state so far: every emitted event is folded into it at once. */
  state: InstanceState
  readonly events: Array<InstanceEvent>
  /** Token steps still to run (drain). */
  readonly work: Array<() => void>
  readonly graph: ProcessGraph
  /** The time the command is applied at (an input: the core reads no clock). */
  readonly now: number
  /** The state before this command: a non-interrupting conditional event triggers when its condition becomes true. */
  readonly before: InstanceState
  /** Conditional subscriptions triggered by this command (each at most once per command). */
  readonly conditionsFired: Set<string>
  /** Play mode: the outgoing flow to take at these gateways, whatever their conditions say. */
  readonly chosenFlows: Readonly<Record<string, string>>

  // The run's own steps (CommandRun.ts)
  chosenFlow(node: GraphNode): string | undefined
  emit(event: InstanceEvent): void
  newId(kind: string): string
  node(id: string): GraphNode
  flow(id: string): GraphFlow
  drain(): void
  enter(nodeId: string, viaFlow: string | null, scopeId: string): void
  raiseIncident(token: Token, incidentType: string, message: string): void
  mapped(
    token: Token,
    mappings: ReadonlyArray<Mapping>,
    variables: Readonly<Record<string, unknown>>,
    kind: string
  ): Record<string, unknown> | null
  takeableFlows(token: Token, node: GraphNode, visible: Readonly<Record<string, unknown>>): Array<string>
  finishActivity(token: Token, node: GraphNode, result: Readonly<Record<string, unknown>>): void
  leave(token: Token, node: GraphNode, flows: ReadonlyArray<string>): void
  inAdHoc(scopeId: string): boolean
  completeScopeIfDone(scopeId: string): void
  closeScope(scopeId: string): void
  propagate(fromScopeId: string, nodeId: string | null, variables: Readonly<Record<string, unknown>>): void
  terminateScope(scopeId: string): void
  terminateToken(token: Token): void
  terminateAll(): void

  // Elements (elements/Activate.ts) and inclusive gateways (behaviours/InclusiveGateways.ts)
  activate(tokenId: string): void
  reaches(from: string, target: string): boolean
  fireReadyInclusiveJoins(): boolean
  inclusiveFork(token: Token, node: GraphNode): void
  // Conditional events (behaviours/Conditions.ts)
  conditionHolds(condition: string, state: InstanceState, scopeId: string): boolean
  fireConditions(): boolean
  // Event subprocesses (behaviours/EventSubprocesses.ts)
  eventStartsOf(scopeId: string): ReadonlyArray<string>
  hostIdOf(scopeId: string): string
  closeEventStarts(scopeId: string): void
  startEventSubprocess(scopeId: string, startNodeId: string, variables: Readonly<Record<string, unknown>>): void
  // Multi-instance activities (behaviours/MultiInstance.ts)
  startMultiInstance(token: Token, node: GraphNode, loop: MultiInstanceDefinition): void
  startIteration(bodyScopeId: string, index: number): void
  finishIteration(token: Token, node: GraphNode): void
  completeMultiInstance(bodyScopeId: string): void
  // Boundary events and event-based gateways (behaviours/Boundaries.ts)
  openBoundaries(
    host: { readonly id: string; readonly scopeId: string },
    failing: Token,
    eventIds: ReadonlyArray<string>,
    how?: { readonly viaGateway?: true; readonly eventScopeId?: string }
  ): boolean
  closeBoundaries(hostTokenId: string): void
  triggerBoundary(subscriptionId: string, variables: Readonly<Record<string, unknown>>): void
  triggerEventStart(armed: Boundary, variables: Readonly<Record<string, unknown>>): void
  passEventGateway(
    gateway: Token,
    eventNodeId: string,
    subscriptionId: string,
    variables: Readonly<Record<string, unknown>>
  ): void
  interrupt(host: Token): void
  // Errors and escalations (behaviours/ErrorsAndEscalations.ts)
  throwError(from: Token, errorCode: string, errorMessage: string, variables: Readonly<Record<string, unknown>>): void
  findCatcher(from: Token, catches: (node: GraphNode) => boolean): Catcher | undefined
  throwEscalation(from: Token, code: string): boolean
  // Commands (commands/)
  command(command: InstanceCommand): void
  moveToken(command: Extract<InstanceCommand, { type: "MoveToken" }>): void
  migrateFrom(source: ProcessGraph, command: Extract<InstanceCommand, { type: "MigrateInstance" }>): void
  resolveIncident(command: Extract<InstanceCommand, { type: "ResolveIncident" }>): void
}

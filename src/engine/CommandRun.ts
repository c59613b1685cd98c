// One command's run (Run.ts says what it is to the engine's parts): emits events (folding them into the state) and
// works off the queue of token steps. What the elements, shared behaviours and commands do lives in their modules;
// the run holds the state and the queue, and hands each step to its module.
import { evaluateFeel, isExpression } from "../bpmn/Expressions.ts"
import { boundaryIdsOf, isActivity, multiInstanceOf, nodeAt } from "../bpmn/GraphNodes.ts"
import type { GraphFlow, GraphNode, Mapping, ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { isActivationScope } from "./behaviours/AdHocActivations.ts"
import { activationCompleted, adHocElementCompleted } from "./behaviours/AdHocCompletion.ts"
import * as Boundaries from "./behaviours/Boundaries.ts"
import { handlerCompleted, liftCompensable, recordCompensable } from "./behaviours/Compensation.ts"
import * as Conditions from "./behaviours/Conditions.ts"
import * as ErrorsAndEscalations from "./behaviours/ErrorsAndEscalations.ts"
import * as EventSubprocesses from "./behaviours/EventSubprocesses.ts"
import * as InclusiveGateways from "./behaviours/InclusiveGateways.ts"
import { cancelingListenersAfter, cancelListenedTask, endListenersPending } from "./behaviours/Listeners.ts"
import * as MultiInstance from "./behaviours/MultiInstance.ts"
import { processEndListenersPending } from "./behaviours/ProcessListeners.ts"
import * as Command from "./commands/Command.ts"
import * as Migrate from "./commands/Migrate.ts"
import * as MoveToken from "./commands/MoveToken.ts"
import * as ResolveIncident from "./commands/ResolveIncident.ts"
import { derivedId } from "./DerivedId.ts"
import * as Activate from "./elements/Activate.ts"
import { apply, type InstanceEvent, type InstanceState, type Token, visibleVariables } from "./InstanceState.ts"
import { jsonSizeWithin } from "./JsonSize.ts"
import type { Run } from "./Run.ts"
import {
  MAX_EVENT_CHARS_PER_COMMAND,
  MAX_EVENTS_PER_COMMAND,
  MAX_STEPS_PER_COMMAND,
  overBudget,
  overSizeBudget
} from "./RunBudget.ts"

type Rest<T> = T extends [unknown, ...infer R] ? R : never

export class CommandRun implements Run {
  state: InstanceState
  readonly events: Array<InstanceEvent> = []
  readonly work: Array<() => void> = []
  readonly graph: ProcessGraph
  /** The time the command is applied at (an input: the core reads no clock). */
  readonly now: number
  /** The state before this command: a non-interrupting conditional event triggers when its condition becomes true. */
  readonly before: InstanceState
  /** Conditional subscriptions triggered by this command (each at most once per command). */
  readonly conditionsFired = new Set<string>()

  /** About how many characters of JSON the events emitted so far take (RunBudget.ts). */
  private eventChars = 0

  /** Play mode: the outgoing flow to take at these gateways, whatever their conditions say. */
  readonly chosenFlows: Readonly<Record<string, string>>

  constructor(
    graph: ProcessGraph,
    state: InstanceState,
    now: number,
    chosenFlows: Readonly<Record<string, string>> = {}
  ) {
    this.graph = graph
    this.state = state
    this.now = now
    this.before = state
    this.chosenFlows = chosenFlows
  }

  /** A flow chosen for this gateway (Play), if it is one of its outgoing flows. */
  chosenFlow(node: GraphNode): string | undefined {
    const flowId = this.chosenFlows[node.id]
    return flowId !== undefined && node.outgoing.includes(flowId) ? flowId : undefined
  }

  emit(event: InstanceEvent): void {
    if (this.events.length >= MAX_EVENTS_PER_COMMAND) {
      throw overBudget(`${MAX_EVENTS_PER_COMMAND} events`, "nodeId" in event ? event.nodeId ?? undefined : undefined)
    }
    this.eventChars += jsonSizeWithin(event, MAX_EVENT_CHARS_PER_COMMAND - this.eventChars)
    if (this.eventChars > MAX_EVENT_CHARS_PER_COMMAND) {
      throw overSizeBudget("nodeId" in event ? event.nodeId ?? undefined : undefined)
    }
    this.events.push(event)
    this.state = apply(this.state, event)
  }

  newId(kind: string): string {
    return derivedId(this.state.instanceId, `${kind}:${this.state.eventCount}`)
  }

  node(id: string): GraphNode {
    return nodeAt(this.graph, id)
  }

  flow(id: string): GraphFlow {
    const flow = this.graph.flows[id]
    if (flow === undefined) throw new Error(`graph has no flow ${id}`)
    return flow
  }

  /** Runs queued steps until the instance waits everywhere (or ends). */
  drain(): void {
    let steps = 0
    for (;;) {
      for (let step = this.work.shift(); step !== undefined; step = this.work.shift()) {
        if (this.state.status === "COMPLETED" || this.state.status === "CANCELED") return
        if (++steps > MAX_STEPS_PER_COMMAND) throw overBudget(`${MAX_STEPS_PER_COMMAND} steps`, undefined)
        step()
      }
      // A token that ended or moved elsewhere may have been the last one an inclusive join waited for; changed
      // variables may have made a condition true.
      if (!this.fireReadyInclusiveJoins() && !this.fireConditions()) return
    }
  }

  enter(nodeId: string, viaFlow: string | null, scopeId: string): void {
    const tokenId = this.newId("token")
    this.emit({ type: "ElementActivated", tokenId, nodeId, scopeId, viaFlow })
    this.work.push(() => this.activate(tokenId))
  }

  raiseIncident(token: Token, incidentType: string, message: string): void {
    this.emit({
      type: "IncidentRaised",
      incidentId: this.newId("incident"),
      tokenId: token.id,
      nodeId: token.nodeId,
      incidentType,
      message
    })
  }

  /** Evaluates mappings in order against the variables (each sees the targets before it); null on failure. */
  mapped(
    token: Token,
    mappings: ReadonlyArray<Mapping>,
    variables: Readonly<Record<string, unknown>>,
    kind: string
  ): Record<string, unknown> | null {
    const result: Record<string, unknown> = {}
    for (const mapping of mappings) {
      const outcome = evaluateFeel(mapping.source, { ...variables, ...result })
      if (!outcome.ok) {
        this.raiseIncident(token, "IO_MAPPING_ERROR", `${kind} mapping ${mapping.target} failed: ${outcome.message}`)
        return null
      }
      result[mapping.target] = outcome.value
    }
    return result
  }

  /** Flows an activity or event leaves by: every flow whose condition is absent or true. */
  takeableFlows(token: Token, node: GraphNode, visible: Readonly<Record<string, unknown>>): Array<string> {
    return node.outgoing.filter((flowId) => {
      const condition = this.flow(flowId).condition
      if (condition === null) return true
      const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
      return outcome.ok && outcome.value === true
    })
  }

  /** An activity finished with a result: output mappings (or the result as is) become variables, then it leaves. */
  finishActivity(token: Token, node: GraphNode, result: Readonly<Record<string, unknown>>): void {
    if (node.outputs.length > 0) {
      const outputs = this.mapped(
        token,
        node.outputs,
        { ...visibleVariables(this.state, token.scopeId), ...result },
        "output"
      )
      if (outputs === null) return
      this.propagate(token.scopeId, node.id, outputs)
    } else if (Object.keys(result).length > 0) {
      this.propagate(token.scopeId, node.id, result)
    }
    const current = this.state.tokens[token.id]
    if (current !== undefined) {
      this.leave(current, node, this.takeableFlows(current, node, visibleVariables(this.state, current.scopeId)))
    }
  }

  leave(token: Token, node: GraphNode, flows: ReadonlyArray<string>): void {
    if ((token.loop ?? null) !== null) return this.finishIteration(token, node)
    // End execution listeners run before the element leaves (its boundary events still armed).
    if (endListenersPending(this, token, node, flows)) return
    if (boundaryIdsOf(node).length > 0) this.closeBoundaries(token.id)
    this.emit({ type: "ElementCompleted", tokenId: token.id, nodeId: node.id })
    // A multi-instance activity's inner instances were recorded one by one (finishIteration), not its body.
    if (isActivity(node) && node.compensation !== undefined && multiInstanceOf(node) == null) {
      recordCompensable(this, token, node)
    }
    if (isActivity(node) && node.forCompensation === true) return handlerCompleted(this, token)
    for (const flowId of flows) {
      const flow = this.flow(flowId)
      this.emit({ type: "FlowTaken", flowId, tokenId: token.id, nodeId: node.id })
      this.enter(flow.target, flowId, token.scopeId)
    }
    if (flows.length === 0) return this.completeScopeIfDone(token.scopeId)
    const scope = this.state.scopes[token.scopeId]
    if (isActivationScope(this, scope)) adHocElementCompleted(this, scope!.parentId, false)
    else if (this.inAdHoc(token.scopeId)) adHocElementCompleted(this, token.scopeId, false)
  }

  /**
   * Whether the scope is an ad-hoc subprocess's own (its elements' completions are checked against its condition; an
   * activation's scope inside it is not).
   */
  inAdHoc(scopeId: string): boolean {
    const scope = this.state.scopes[scopeId]
    return scope !== undefined && this.node(scope.nodeId).type === "adHocSubProcess" && !isActivationScope(this, scope)
  }

  /** A scope with no token left is complete: the instance ends, or the subprocess's token moves on. */
  completeScopeIfDone(scopeId: string): void {
    if (this.inAdHoc(scopeId)) return adHocElementCompleted(this, scopeId, true)
    if (Object.values(this.state.tokens).some((t) => t.scopeId === scopeId)) return
    this.closeScope(scopeId)
  }

  /** A scope whose work is done: the instance ends, or its subprocess applies its outputs and moves on. */
  closeScope(scopeId: string): void {
    // The scope's event subprocesses can no longer start.
    this.closeEventStarts(scopeId)
    const scope = this.state.scopes[scopeId]
    // The instance's end listeners run first (engine/behaviours/ProcessListeners.ts).
    if (scope === undefined) {
      return processEndListenersPending(this)
        ? undefined
        : this.emit({ type: "InstanceCompleted" })
    }
    if (isActivationScope(this, scope)) return activationCompleted(this, scope)
    const node = this.node(scope.nodeId)
    const subprocessToken = this.state.tokens[scope.tokenId]!
    // Output mappings of the subprocess read its scope; without them its local variables end with it.
    const mapped = node.outputs.length > 0
      ? this.mapped(subprocessToken, node.outputs, visibleVariables(this.state, scopeId), "output")
      : {}
    if (mapped === null) return
    // An ad-hoc subprocess's output collection goes to the enclosing scope with it.
    const collection = node.type === "adHocSubProcess" ? node.adHoc.outputCollection : null
    const outputs = collection === null ? mapped : { [collection]: scope.variables[collection], ...mapped }
    liftCompensable(this, scope)
    this.emit({ type: "ScopeClosed", scopeId, nodeId: node.id })
    const token = this.state.tokens[scope.tokenId]!
    if (Object.keys(outputs).length > 0) this.propagate(token.scopeId, node.id, outputs)
    this.leave(token, node, this.takeableFlows(token, node, visibleVariables(this.state, token.scopeId)))
  }

  /**
   * Zeebe's rule for variables an activity produces: each goes to the nearest scope (from the activity's own outwards)
   * that already has a variable of that name, else to the instance's root scope.
   */
  propagate(fromScopeId: string, nodeId: string | null, variables: Readonly<Record<string, unknown>>): void {
    const byScope = new Map<string, Record<string, unknown>>()
    for (const [name, value] of Object.entries(variables)) {
      let target: string | null = this.state.instanceId
      for (let scope = this.state.scopes[fromScopeId]; scope !== undefined; scope = this.state.scopes[scope.parentId]) {
        if (name in scope.variables) {
          // A multi-instance body's output collection is written only slot by slot as iterations end.
          target = scope.loop !== undefined && name === multiInstanceOf(this.node(scope.nodeId))?.outputCollection
            ? null
            : scope.id
          break
        }
      }
      if (target !== null) byScope.set(target, { ...byScope.get(target), [name]: value })
    }
    for (const [scopeId, values] of byScope) this.emit({ type: "VariablesSet", nodeId, scopeId, variables: values })
  }

  /** Ends every token of a scope and of the scopes nested in it, withdrawing what they wait on. */
  terminateScope(scopeId: string): void {
    const inside = (candidate: string): boolean => {
      if (scopeId === this.state.instanceId) return true
      for (let scope = this.state.scopes[candidate]; scope !== undefined; scope = this.state.scopes[scope.parentId]) {
        if (scope.id === scopeId) return true
      }
      return candidate === scopeId
    }
    for (const token of Object.values(this.state.tokens).filter((t) => inside(t.scopeId))) this.terminateToken(token)
    for (const scope of Object.values(this.state.scopes).filter((s) => s.id !== scopeId && inside(s.id))) {
      this.emit({ type: "ScopeClosed", scopeId: scope.id, nodeId: scope.nodeId })
    }
  }

  terminateToken(token: Token): void {
    this.closeBoundaries(token.id)
    const wait = token.wait
    if (wait?.kind === "job") {
      this.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId: wait.jobId })
      cancelListenedTask(this, token)
    }
    if (wait?.kind === "userTask") {
      this.emit({ type: "UserTaskCanceled", tokenId: token.id, nodeId: token.nodeId, taskId: wait.taskId })
      cancelingListenersAfter(this, token, wait.taskId)
    }
    if (wait?.kind === "message") {
      this.emit({
        type: "MessageSubscriptionClosed",
        tokenId: token.id,
        nodeId: token.nodeId,
        subscriptionId: wait.subscriptionId
      })
    }
    if (wait?.kind === "timer") {
      this.emit({ type: "TimerCanceled", tokenId: token.id, nodeId: token.nodeId, subscriptionId: wait.subscriptionId })
    }
    if (wait?.kind === "signal") {
      this.emit({
        type: "SignalSubscriptionClosed",
        tokenId: token.id,
        nodeId: token.nodeId,
        subscriptionId: wait.subscriptionId
      })
    }
    if (wait?.kind === "incident") {
      const jobId = this.state.incidents[wait.incidentId]?.jobId
      this.emit({ type: "IncidentResolved", incidentId: wait.incidentId, nodeId: token.nodeId })
      if (jobId !== undefined) this.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId })
      cancelListenedTask(this, token)
    }
    if (wait?.kind === "child") {
      this.emit({
        type: "ChildInstanceCancelRequested",
        tokenId: token.id,
        nodeId: token.nodeId,
        childInstanceId: wait.childInstanceId
      })
    }
    this.emit({ type: "ElementTerminated", tokenId: token.id, nodeId: token.nodeId })
  }

  terminateAll(): void {
    this.closeEventStarts(this.state.instanceId)
    this.terminateScope(this.state.instanceId)
  }

  // Behaviours, elements and commands live in their own modules (engine/behaviours, elements, commands); the run
  // delegates to them so every part can call every other through the run.
  reaches = (...args: Rest<Parameters<typeof InclusiveGateways.reaches>>) => InclusiveGateways.reaches(this, ...args)
  fireReadyInclusiveJoins = (...args: Rest<Parameters<typeof InclusiveGateways.fireReadyInclusiveJoins>>) =>
    InclusiveGateways.fireReadyInclusiveJoins(this, ...args)
  inclusiveFork = (...args: Rest<Parameters<typeof InclusiveGateways.inclusiveFork>>) =>
    InclusiveGateways.inclusiveFork(this, ...args)
  activate = (...args: Rest<Parameters<typeof Activate.activate>>) => Activate.activate(this, ...args)
  conditionHolds = (...args: Rest<Parameters<typeof Conditions.conditionHolds>>) =>
    Conditions.conditionHolds(this, ...args)
  fireConditions = (...args: Rest<Parameters<typeof Conditions.fireConditions>>) =>
    Conditions.fireConditions(this, ...args)
  eventStartsOf = (...args: Rest<Parameters<typeof EventSubprocesses.eventStartsOf>>) =>
    EventSubprocesses.eventStartsOf(this, ...args)
  hostIdOf = (...args: Rest<Parameters<typeof EventSubprocesses.hostIdOf>>) => EventSubprocesses.hostIdOf(this, ...args)
  closeEventStarts = (...args: Rest<Parameters<typeof EventSubprocesses.closeEventStarts>>) =>
    EventSubprocesses.closeEventStarts(this, ...args)
  startEventSubprocess = (...args: Rest<Parameters<typeof EventSubprocesses.startEventSubprocess>>) =>
    EventSubprocesses.startEventSubprocess(this, ...args)
  startMultiInstance = (...args: Rest<Parameters<typeof MultiInstance.startMultiInstance>>) =>
    MultiInstance.startMultiInstance(this, ...args)
  startIteration = (...args: Rest<Parameters<typeof MultiInstance.startIteration>>) =>
    MultiInstance.startIteration(this, ...args)
  finishIteration = (...args: Rest<Parameters<typeof MultiInstance.finishIteration>>) =>
    MultiInstance.finishIteration(this, ...args)
  completeMultiInstance = (...args: Rest<Parameters<typeof MultiInstance.completeMultiInstance>>) =>
    MultiInstance.completeMultiInstance(this, ...args)
  openBoundaries = (...args: Rest<Parameters<typeof Boundaries.openBoundaries>>) =>
    Boundaries.openBoundaries(this, ...args)
  closeBoundaries = (...args: Rest<Parameters<typeof Boundaries.closeBoundaries>>) =>
    Boundaries.closeBoundaries(this, ...args)
  triggerBoundary = (...args: Rest<Parameters<typeof Boundaries.triggerBoundary>>) =>
    Boundaries.triggerBoundary(this, ...args)
  triggerEventStart = (...args: Rest<Parameters<typeof Boundaries.triggerEventStart>>) =>
    Boundaries.triggerEventStart(this, ...args)
  passEventGateway = (...args: Rest<Parameters<typeof Boundaries.passEventGateway>>) =>
    Boundaries.passEventGateway(this, ...args)
  interrupt = (...args: Rest<Parameters<typeof Boundaries.interrupt>>) => Boundaries.interrupt(this, ...args)
  throwError = (...args: Rest<Parameters<typeof ErrorsAndEscalations.throwError>>) =>
    ErrorsAndEscalations.throwError(this, ...args)
  findCatcher = (...args: Rest<Parameters<typeof ErrorsAndEscalations.findCatcher>>) =>
    ErrorsAndEscalations.findCatcher(this, ...args)
  throwEscalation = (...args: Rest<Parameters<typeof ErrorsAndEscalations.throwEscalation>>) =>
    ErrorsAndEscalations.throwEscalation(this, ...args)
  moveToken = (...args: Rest<Parameters<typeof MoveToken.moveToken>>) => MoveToken.moveToken(this, ...args)
  migrateFrom = (...args: Rest<Parameters<typeof Migrate.migrateFrom>>) => Migrate.migrateFrom(this, ...args)
  resolveIncident = (...args: Rest<Parameters<typeof ResolveIncident.resolveIncident>>) =>
    ResolveIncident.resolveIncident(this, ...args)
  command = (...args: Rest<Parameters<typeof Command.command>>) => Command.command(this, ...args)
}

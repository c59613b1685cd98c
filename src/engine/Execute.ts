// The pure execution core: (graph, state, command) -> events, folded through `apply`. No IO, no clock, no
// randomness: ids derive from the instance id and the event count, so the same commands give the same events.
// Tokens move as a trampoline of small steps (a work queue), never one element calling the next recursively.
import { createHash } from "node:crypto"
import type { InstanceCommand } from "./InstanceCommands.ts"
import { evaluateFeel, isExpression } from "../bpmn/Expressions.ts"
import { apply, type Boundary, initialState, type InstanceEvent, type InstanceState, type Token, visibleVariables } from "./InstanceState.ts"
import type { GraphFlow, GraphNode, Mapping, ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { planMigration, triggerOf } from "./Migration.ts"
import { dueAt } from "../bpmn/Timer.ts"

export type ExecuteResult =
  | { readonly ok: true; readonly state: InstanceState; readonly events: ReadonlyArray<InstanceEvent> }
  | { readonly ok: false; readonly reason: RejectionReason; readonly message: string }

export type RejectionReason = "INVALID_STATE" | "NOT_FOUND" | "INVALID_ARGUMENT" | "CONFLICT"

/** A name-based UUID (version 8 layout) from the instance id and a discriminator: deterministic and unique. */
export const derivedId = (instanceId: string, discriminator: string): string => {
  const hex = createHash("sha256").update(`${instanceId}/${discriminator}`).digest("hex")
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

class Rejected {
  readonly reason: RejectionReason
  readonly message: string
  constructor(reason: Rejected["reason"], message: string) {
    this.reason = reason
    this.message = message
  }
}

/** One command's run: emits events (folding them into the state) and works off the queue of token steps. */
class Run {
  state: InstanceState
  readonly events: Array<InstanceEvent> = []
  private readonly work: Array<() => void> = []
  readonly graph: ProcessGraph
  /** The time the command is applied at (an input: the core reads no clock). */
  readonly now: number
  /** The state before this command: a non-interrupting conditional event triggers when its condition becomes true. */
  private readonly before: InstanceState
  /** Conditional subscriptions triggered by this command (each at most once per command). */
  private readonly conditionsFired = new Set<string>()

  /** Play mode: the outgoing flow to take at these gateways, whatever their conditions say. */
  private readonly chosenFlows: Readonly<Record<string, string>>

  constructor(graph: ProcessGraph, state: InstanceState, now: number, chosenFlows: Readonly<Record<string, string>> = {}) {
    this.graph = graph
    this.state = state
    this.now = now
    this.before = state
    this.chosenFlows = chosenFlows
  }

  /** A flow chosen for this gateway (Play), if it is one of its outgoing flows. */
  private chosenFlow(node: GraphNode): string | undefined {
    const flowId = this.chosenFlows[node.id]
    return flowId !== undefined && node.outgoing.includes(flowId) ? flowId : undefined
  }

  emit(event: InstanceEvent): void {
    this.events.push(event)
    this.state = apply(this.state, event)
  }

  private newId(kind: string): string {
    return derivedId(this.state.instanceId, `${kind}:${this.state.eventCount}`)
  }

  private node(id: string): GraphNode {
    const node = this.graph.nodes[id]
    if (node === undefined) throw new Error(`graph has no node ${id}`)
    return node
  }

  private flow(id: string): GraphFlow {
    const flow = this.graph.flows[id]
    if (flow === undefined) throw new Error(`graph has no flow ${id}`)
    return flow
  }

  /** Runs queued steps until the instance waits everywhere (or ends). */
  drain(): void {
    for (;;) {
      for (let step = this.work.shift(); step !== undefined; step = this.work.shift()) {
        if (this.state.status === "COMPLETED" || this.state.status === "CANCELED") return
        step()
      }
      // A token that ended or moved elsewhere may have been the last one an inclusive join waited for; changed
      // variables may have made a condition true.
      if (!this.fireReadyInclusiveJoins() && !this.fireConditions()) return
    }
  }

  /** Whether `target` can be reached from `from` along sequence flows. */
  private reaches(from: string, target: string): boolean {
    const seen = new Set<string>()
    const queue = [from]
    for (let nodeId = queue.shift(); nodeId !== undefined; nodeId = queue.shift()) {
      for (const flowId of this.graph.nodes[nodeId]?.outgoing ?? []) {
        const next = this.flow(flowId).target
        if (next === target) return true
        if (!seen.has(next)) {
          seen.add(next)
          queue.push(next)
        }
      }
    }
    return false
  }

  /**
   * BPMN 13.3.4: an inclusive join fires once it has a token and no other token of the instance can still arrive
   * at it (no token elsewhere has a path to the gateway).
   */
  private fireReadyInclusiveJoins(): boolean {
    const tokens = Object.values(this.state.tokens)
    for (const node of Object.values(this.graph.nodes)) {
      if (node.type !== "inclusiveGateway" || node.incoming.length <= 1) continue
      const arrived = tokens.filter((t) => t.nodeId === node.id && t.wait?.kind === "join")
      if (arrived.length === 0) continue
      const pending = tokens.some((t) => !(t.nodeId === node.id && t.wait?.kind === "join") && (t.nodeId === node.id || this.reaches(t.nodeId, node.id)))
      if (pending) continue
      for (const other of arrived.slice(1)) this.emit({ type: "ElementCompleted", tokenId: other.id, nodeId: node.id })
      const survivor = this.state.tokens[arrived[0]!.id]!
      this.work.push(() => this.inclusiveFork(survivor, node))
      return true
    }
    return false
  }

  /** BPMN 13.3.4: every outgoing flow whose condition is true; the default flow only when none is. */
  private inclusiveFork(token: Token, node: GraphNode): void {
    const forced = this.chosenFlow(node)
    if (forced !== undefined) return this.leave(token, node, [forced])
    const visible = visibleVariables(this.state, token.scopeId)
    const chosen: Array<string> = []
    for (const flowId of node.outgoing) {
      if (flowId === node.defaultFlow) continue
      const condition = this.flow(flowId).condition
      if (condition === null) {
        chosen.push(flowId)
        continue
      }
      const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
      if (!outcome.ok) return this.raiseIncident(token, "CONDITION_ERROR", `condition of flow ${flowId} failed: ${outcome.message}`)
      if (outcome.value === true) chosen.push(flowId)
    }
    if (chosen.length === 0 && node.defaultFlow !== null) chosen.push(node.defaultFlow)
    if (chosen.length === 0) {
      return this.raiseIncident(token, "CONDITION_ERROR", `no outgoing flow of inclusive gateway ${node.id} has a true condition and there is no default flow`)
    }
    this.leave(token, node, chosen)
  }

  enter(nodeId: string, viaFlow: string | null, scopeId: string): void {
    const tokenId = this.newId("token")
    this.emit({ type: "ElementActivated", tokenId, nodeId, scopeId, viaFlow })
    this.work.push(() => this.activate(tokenId))
  }

  private raiseIncident(token: Token, incidentType: string, message: string): void {
    this.emit({ type: "IncidentRaised", incidentId: this.newId("incident"), tokenId: token.id, nodeId: token.nodeId, incidentType, message })
  }

  /** Evaluates mappings in order against the variables (each sees the targets before it); null on failure. */
  mapped(token: Token, mappings: ReadonlyArray<Mapping>, variables: Readonly<Record<string, unknown>>, kind: string): Record<string, unknown> | null {
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

  private activate(tokenId: string): void {
    const token = this.state.tokens[tokenId]
    if (token === undefined) return
    const node = this.node(token.nodeId)
    // Boundary events are armed while their host runs (for a multi-instance activity: its body).
    if (node.boundaryIds.length > 0 && (token.loop ?? null) === null && !this.openBoundaries(token, token, node.boundaryIds)) return
    // A multi-instance activity first becomes its body; each iteration is a token of its own (with loop set).
    if (node.multiInstance !== null && (token.loop ?? null) === null) return this.startMultiInstance(token, node)
    const outer = { ...visibleVariables(this.state, token.scopeId), ...this.state.nodeVariables[node.id] }
    const locals = this.mapped(token, node.inputs, outer, "input")
    if (locals === null) return
    const visible = { ...outer, ...locals }
    switch (node.type) {
      case "startEvent": {
        // Entering a scope (the process or a subprocess) arms the start events of its event subprocesses.
        const eventStarts = this.eventStartsOf(token.scopeId)
        if (eventStarts.length > 0 && !this.openBoundaries({ id: this.hostIdOf(token.scopeId), scopeId: token.scopeId }, token, eventStarts, { eventScopeId: token.scopeId })) return
        return this.leave(token, node, this.takeableFlows(token, node, visible))
      }
      case "intermediateThrowEvent":
        if (node.job !== null) return this.createJob(token, node, visible)
        if (node.escalationThrow != null && !this.throwEscalation(token, node.escalationThrow.code)) return
        if (node.link?.target != null) {
          // A link is a jump: the token continues at the catch link as if a flow led there.
          this.emit({ type: "ElementCompleted", tokenId, nodeId: node.id })
          return this.enter(node.link.target, null, token.scopeId)
        }
        if (node.signalThrow != null) this.emit({ type: "SignalThrown", tokenId, nodeId: node.id, signalName: node.signalThrow.name, variables: locals })
        return this.leave(token, node, this.takeableFlows(token, node, visible))
      case "boundaryEvent":
      case "task":
      case "manualTask":
        return this.leave(token, node, this.takeableFlows(token, node, visible))
      case "scriptTask": {
        const script = node.script!
        const outcome = evaluateFeel(isExpression(script.expression) ? script.expression : `=${script.expression}`, visible)
        if (!outcome.ok) return this.raiseIncident(token, "EXPRESSION_ERROR", `script of ${node.id} failed: ${outcome.message}`)
        return this.finishActivity(token, node, { [script.resultVariable]: outcome.value })
      }
      case "serviceTask":
      case "sendTask":
        return this.createJob(token, node, visible)
      case "userTask": {
        const definition = node.userTask!
        const evaluate = (value: string | null): string | null => {
          if (value === null) return null
          const outcome = evaluateFeel(value, visible)
          return outcome.ok && outcome.value !== null ? String(outcome.value) : null
        }
        this.emit({
          type: "UserTaskCreated",
          tokenId,
          nodeId: node.id,
          taskId: this.newId("task"),
          name: node.name,
          assignee: evaluate(definition.assignee),
          candidateGroups: definition.candidateGroups,
          candidateUsers: definition.candidateUsers,
          formKey: definition.formKey,
          variables: visible
        })
        return
      }
      case "receiveTask":
      case "intermediateCatchEvent": {
        if (node.timer !== null) {
          const due = dueAt(node.timer, this.now, visible)
          if (!due.ok) return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `timer of ${node.id} failed: ${due.message}`)
          this.emit({ type: "TimerScheduled", tokenId, nodeId: node.id, subscriptionId: this.newId("timer"), dueAt: new Date(due.dueAt).toISOString() })
          return
        }
        if (node.signal !== null) {
          this.emit({ type: "SignalSubscriptionOpened", tokenId, nodeId: node.id, subscriptionId: this.newId("subscription"), signalName: node.signal.name })
          return
        }
        if (node.link != null) return this.leave(token, node, this.takeableFlows(token, node, visible))
        if (node.condition != null) {
          // A condition already true lets the token pass at once; else it waits until a variable change makes it true.
          if (this.conditionHolds(node.condition, this.state, token.scopeId)) return this.leave(token, node, this.takeableFlows(token, node, visible))
          this.emit({ type: "ConditionSubscribed", tokenId, nodeId: node.id })
          return
        }
        // The correlation key is evaluated when the token arrives and stored with the subscription (SERVICE.md, Events).
        const message = node.message!
        const key = evaluateFeel(message.correlationKey, visible)
        if (!key.ok) return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} failed: ${key.message}`)
        if (typeof key.value !== "string" && typeof key.value !== "number") {
          return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} must be a string or a number, got ${key.value === null ? "null" : typeof key.value}`)
        }
        this.emit({
          type: "MessageSubscriptionOpened", tokenId, nodeId: node.id, subscriptionId: this.newId("subscription"), messageName: message.name, correlationKey: String(key.value)
        })
        return
      }
      case "exclusiveGateway": {
        const chosen = this.chosenFlow(node)
        if (chosen !== undefined) return this.leave(token, node, [chosen])
        // BPMN 13.3.2: the first outgoing flow (in order) whose condition is true; else the default flow.
        for (const flowId of node.outgoing) {
          if (flowId === node.defaultFlow) continue
          const condition = this.flow(flowId).condition
          if (condition === null) return this.leave(token, node, [flowId])
          const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
          if (!outcome.ok) return this.raiseIncident(token, "CONDITION_ERROR", `condition of flow ${flowId} failed: ${outcome.message}`)
          if (outcome.value === true) return this.leave(token, node, [flowId])
        }
        if (node.defaultFlow !== null) return this.leave(token, node, [node.defaultFlow])
        return this.raiseIncident(token, "CONDITION_ERROR", `no outgoing flow of gateway ${node.id} has a true condition and there is no default flow`)
      }
      case "parallelGateway": {
        if (node.incoming.length <= 1) return this.leave(token, node, node.outgoing)
        // BPMN 13.3.3: the join fires once a token has arrived on every incoming flow.
        this.emit({ type: "JoinArrived", tokenId, nodeId: node.id })
        const arrived = Object.values(this.state.tokens).filter((t) => t.nodeId === node.id && t.wait?.kind === "join")
        const pick = node.incoming.map((flowId) => arrived.find((t) => t.viaFlow === flowId))
        if (pick.some((t) => t === undefined)) return
        const consumed = pick as Array<Token>
        for (const other of consumed.slice(1)) this.emit({ type: "ElementCompleted", tokenId: other.id, nodeId: node.id })
        return this.leave(consumed[0]!, node, node.outgoing)
      }
      case "businessRuleTask": {
        // The decision is evaluated outside the core (it reads deployed decisions); the token waits for the answer.
        this.emit({
          type: "DecisionRequested", tokenId, nodeId: node.id, evaluationId: this.newId("decision"), decisionId: node.decision!.decisionId, variables: visible
        })
        return
      }
      case "callActivity": {
        // The child is an instance of the latest version of the called process; it gets the parent's visible
        // variables plus the input mappings, and the parent waits until it ends.
        const call = node.call!
        this.emit({
          type: "ChildInstanceRequested", tokenId, nodeId: node.id, childInstanceId: this.newId("child"), processKey: call.processId, variables: visible
        })
        return
      }
      case "subProcess": {
        // An embedded subprocess is a variable scope of its own: its input mappings are its local variables.
        const scopeId = this.newId("scope")
        this.emit({ type: "ScopeOpened", scopeId, parentScopeId: token.scopeId, nodeId: node.id, tokenId, variables: { ...this.state.nodeVariables[node.id], ...locals } })
        return this.enter(node.startNodeIds[0]!, null, scopeId)
      }
      case "eventBasedGateway": {
        // BPMN 13.3.5: the gateway waits for the first of the events after it; the others are withdrawn.
        this.openBoundaries(token, token, node.outgoing.map((flowId) => this.flow(flowId).target), { viaGateway: true })
        return
      }
      case "inclusiveGateway": {
        if (node.incoming.length <= 1) return this.inclusiveFork(token, node)
        // Join: wait here; fireReadyInclusiveJoins decides when nothing more can arrive.
        this.emit({ type: "JoinArrived", tokenId, nodeId: node.id })
        return
      }
      case "endEvent": {
        if (node.errorThrow !== null) return this.throwError(token, node.errorThrow.errorCode, "", {})
        if (node.job !== null) return this.createJob(token, node, visible)
        if (node.signalThrow != null) this.emit({ type: "SignalThrown", tokenId, nodeId: node.id, signalName: node.signalThrow.name, variables: locals })
        if (node.escalationThrow != null && !this.throwEscalation(token, node.escalationThrow.code)) return
        this.emit({ type: "ElementCompleted", tokenId, nodeId: node.id })
        // A terminate end event ends every other path of its scope: the instance, or its subprocess (BPMN 13.5.6).
        if (node.terminate) this.terminateScope(token.scopeId)
        return this.completeScopeIfDone(token.scopeId)
      }
    }
  }

  private createJob(token: Token, node: GraphNode, visible: Readonly<Record<string, unknown>>): void {
    const job = node.job!
    this.emit({
      type: "JobCreated", tokenId: token.id, nodeId: node.id, jobId: this.newId("job"), jobType: job.type, retries: job.retries, headers: job.headers, variables: visible
    })
  }

  /** Whether a FEEL condition holds in a scope of a state (a failing condition does not hold). */
  private conditionHolds(condition: string, state: InstanceState, scopeId: string): boolean {
    const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visibleVariables(state, scopeId))
    return outcome.ok && outcome.value === true
  }

  /**
   * Conditional events (as Camunda 8): a waiting conditional catch event and an interrupting conditional boundary or
   * event subprocess trigger once their condition is true; a non-interrupting one when it becomes true (it was false
   * before this command, or was armed by it). One trigger per call; the drain loop calls again.
   */
  private fireConditions(): boolean {
    if (this.state.status !== "ACTIVE") return false
    for (const token of Object.values(this.state.tokens)) {
      if (token.wait?.kind !== "condition") continue
      const node = this.node(token.nodeId)
      if (!this.conditionHolds(node.condition ?? "", this.state, token.scopeId)) continue
      this.emit({ type: "ConditionTriggered", tokenId: token.id, nodeId: node.id })
      this.finishActivity(this.state.tokens[token.id]!, node, {})
      return true
    }
    for (const armed of Object.values(this.state.boundaries ?? {})) {
      if (armed.kind !== "conditional" || this.conditionsFired.has(armed.subscriptionId)) continue
      const node = this.node(armed.nodeId)
      const scopeId = armed.eventScopeId ?? this.state.tokens[armed.hostTokenId]?.scopeId
      if (scopeId === undefined || !this.conditionHolds(node.condition ?? "", this.state, scopeId)) continue
      const interrupting = node.eventStart != null ? node.eventStart.interrupting : node.boundary?.interrupting ?? true
      const armedBefore = this.before.boundaries?.[armed.subscriptionId] !== undefined
      if (!interrupting && armedBefore && this.conditionHolds(node.condition ?? "", this.before, scopeId)) continue
      this.conditionsFired.add(armed.subscriptionId)
      this.triggerBoundary(armed.subscriptionId, {})
      return true
    }
    return false
  }

  /** The start events of the event subprocesses of a scope: the process's, or an embedded subprocess's. */
  private eventStartsOf(scopeId: string): ReadonlyArray<string> {
    if (scopeId === this.state.instanceId) return this.graph.eventStartIds ?? []
    const scope = this.state.scopes[scopeId]
    if (scope === undefined) return []
    // Only the scope a subprocess's content runs in (its token waits on it), not a multi-instance body or iteration.
    const wait = this.state.tokens[scope.tokenId]?.wait
    if (wait?.kind !== "subprocess" || wait.scopeId !== scopeId) return []
    return this.node(scope.nodeId).eventStartIds ?? []
  }

  /** What an event subprocess's subscriptions hang on: the scope's token, or the instance id at process level. */
  private hostIdOf(scopeId: string): string {
    return scopeId === this.state.instanceId ? scopeId : this.state.scopes[scopeId]?.tokenId ?? scopeId
  }

  /** Withdraws the armed event subprocess start events of a scope. */
  private closeEventStarts(scopeId: string): void {
    for (const armed of Object.values(this.state.boundaries ?? {})) {
      if (armed.eventScopeId === scopeId) this.emit({ type: "BoundaryClosed", hostTokenId: armed.hostTokenId, nodeId: armed.nodeId, subscriptionId: armed.subscriptionId })
    }
  }

  /**
   * BPMN 10.3.5: an event subprocess starts when its start event happens. An interrupting one first ends everything
   * else in its scope (tokens and the scope's other event subprocesses); a non-interrupting one runs alongside.
   */
  private startEventSubprocess(scopeId: string, startNodeId: string, variables: Readonly<Record<string, unknown>>): void {
    const start = this.node(startNodeId)
    if (start.eventStart!.interrupting) {
      this.closeEventStarts(scopeId)
      this.terminateScope(scopeId)
    }
    if (Object.keys(variables).length > 0) this.propagate(scopeId, startNodeId, variables)
    this.enter(start.eventStart!.subprocessId, null, scopeId)
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
      const outputs = this.mapped(token, node.outputs, { ...visibleVariables(this.state, token.scopeId), ...result }, "output")
      if (outputs === null) return
      this.propagate(token.scopeId, node.id, outputs)
    } else if (Object.keys(result).length > 0) {
      this.propagate(token.scopeId, node.id, result)
    }
    const current = this.state.tokens[token.id]
    if (current !== undefined) this.leave(current, node, this.takeableFlows(current, node, visibleVariables(this.state, current.scopeId)))
  }

  /** BPMN 13.2.2 / Zeebe: the input collection is evaluated once; parallel starts every item, sequential one by one. */
  private startMultiInstance(token: Token, node: GraphNode): void {
    const loop = node.multiInstance!
    const collection = evaluateFeel(loop.inputCollection, visibleVariables(this.state, token.scopeId))
    if (!collection.ok) return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `input collection of ${node.id} failed: ${collection.message}`)
    if (!Array.isArray(collection.value)) {
      return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `input collection of ${node.id} must be a list, got ${collection.value === null ? "null" : typeof collection.value}`)
    }
    const items = collection.value
    const scopeId = this.newId("scope")
    this.emit({
      type: "MultiInstanceStarted",
      tokenId: token.id,
      nodeId: node.id,
      scopeId,
      parentScopeId: token.scopeId,
      items,
      sequential: loop.sequential,
      variables: loop.outputCollection === null ? {} : { [loop.outputCollection]: items.map(() => null) }
    })
    if (items.length === 0) return this.completeMultiInstance(scopeId)
    const first = loop.sequential ? 1 : items.length
    for (let index = 0; index < first; index++) this.startIteration(scopeId, index)
  }

  private startIteration(bodyScopeId: string, index: number): void {
    const body = this.state.scopes[bodyScopeId]!
    const loop = this.node(body.nodeId).multiInstance!
    const tokenId = this.newId("token")
    this.emit({
      type: "IterationStarted",
      bodyScopeId,
      index,
      scopeId: this.newId("scope"),
      tokenId,
      nodeId: body.nodeId,
      variables: { ...(loop.inputElement === null ? {} : { [loop.inputElement]: body.loop!.items[index] }), loopCounter: index + 1 }
    })
    this.work.push(() => this.activate(tokenId))
  }

  /** One iteration ended: its output element goes into its slot of the output collection. */
  private finishIteration(token: Token, node: GraphNode): void {
    const loop = node.multiInstance!
    const { bodyScopeId, index } = token.loop!
    if (loop.outputCollection !== null && loop.outputElement !== null) {
      const value = evaluateFeel(loop.outputElement, visibleVariables(this.state, token.scopeId))
      if (!value.ok) return this.raiseIncident(token, "EXTRACT_VALUE_ERROR", `output element of ${node.id} failed: ${value.message}`)
      const results = [...(this.state.scopes[bodyScopeId]!.variables[loop.outputCollection] as Array<unknown>)]
      results[index] = value.value
      this.emit({ type: "VariablesSet", nodeId: node.id, scopeId: bodyScopeId, variables: { [loop.outputCollection]: results } })
    }
    this.emit({ type: "IterationCompleted", bodyScopeId, index, scopeId: token.scopeId, tokenId: token.id, nodeId: node.id })
    const body = this.state.scopes[bodyScopeId]!
    if (body.loop!.completed === body.loop!.items.length) return this.completeMultiInstance(bodyScopeId)
    if (body.loop!.sequential && body.loop!.nextIndex < body.loop!.items.length) this.startIteration(bodyScopeId, body.loop!.nextIndex)
  }

  /** All iterations done: the output collection is the body's result, and the activity moves on. */
  private completeMultiInstance(bodyScopeId: string): void {
    const body = this.state.scopes[bodyScopeId]!
    const node = this.node(body.nodeId)
    const loop = node.multiInstance!
    const outputs = loop.outputCollection === null ? {} : { [loop.outputCollection]: body.variables[loop.outputCollection] }
    this.emit({ type: "ScopeClosed", scopeId: bodyScopeId, nodeId: node.id })
    const token = this.state.tokens[body.tokenId]!
    if (Object.keys(outputs).length > 0) this.propagate(token.scopeId, node.id, outputs)
    this.leave(this.state.tokens[token.id]!, node, this.takeableFlows(token, node, visibleVariables(this.state, token.scopeId)))
  }

  /**
   * Arms catch events on a host: an activity's boundary events, the events after an event-based gateway, or a scope's
   * event subprocess start events (`host.scopeId` is where keys and timers are evaluated). False, with an incident
   * on `failing`, when a correlation key or timer cannot be evaluated. Error events need no subscription: a thrown
   * error looks for its catcher.
   */
  private openBoundaries(
    host: { readonly id: string; readonly scopeId: string },
    failing: Token,
    eventIds: ReadonlyArray<string>,
    how: { readonly viaGateway?: true; readonly eventScopeId?: string } = {}
  ): boolean {
    const visible = visibleVariables(this.state, host.scopeId)
    for (const boundaryId of eventIds) {
      const boundary = this.node(boundaryId)
      const subscriptionId = this.newId(`boundary-${boundaryId}`)
      const base = { type: "BoundaryOpened" as const, hostTokenId: host.id, nodeId: boundaryId, subscriptionId, ...how }
      if (boundary.message !== null) {
        const key = evaluateFeel(boundary.message.correlationKey, visible)
        if (!key.ok || (typeof key.value !== "string" && typeof key.value !== "number")) {
          this.raiseIncident(failing, "EXTRACT_VALUE_ERROR", `correlation key of ${boundaryId} failed: ${key.ok ? "not a string or number" : key.message}`)
          return false
        }
        this.emit({ ...base, kind: "message", name: boundary.message.name, correlationKey: String(key.value), dueAt: null })
      } else if (boundary.signal !== null) {
        this.emit({ ...base, kind: "signal", name: boundary.signal.name, correlationKey: null, dueAt: null })
      } else if (boundary.timer !== null) {
        const due = dueAt(boundary.timer, this.now, visible)
        if (!due.ok) {
          this.raiseIncident(failing, "EXTRACT_VALUE_ERROR", `timer of ${boundaryId} failed: ${due.message}`)
          return false
        }
        this.emit({ ...base, kind: "timer", name: null, correlationKey: null, dueAt: new Date(due.dueAt).toISOString() })
      } else if (boundary.condition != null) {
        this.emit({ ...base, kind: "conditional", name: null, correlationKey: null, dueAt: null })
      }
    }
    return true
  }

  private closeBoundaries(hostTokenId: string): void {
    for (const boundary of Object.values(this.state.boundaries ?? {})) {
      if (boundary.hostTokenId === hostTokenId) {
        this.emit({ type: "BoundaryClosed", hostTokenId, nodeId: boundary.nodeId, subscriptionId: boundary.subscriptionId })
      }
    }
  }

  /**
   * BPMN 10.5.4: an interrupting boundary event cancels its activity (and everything inside it) and the process
   * continues from the boundary event; a non-interrupting one starts a second path while the activity keeps running.
   */
  triggerBoundary(subscriptionId: string, variables: Readonly<Record<string, unknown>>): void {
    const armed = this.state.boundaries?.[subscriptionId]
    if (armed === undefined) throw new Rejected("NOT_FOUND", `subscription ${subscriptionId} is not open in this instance`)
    if (armed.eventScopeId !== undefined) return this.triggerEventStart(armed, variables)
    const host = this.state.tokens[armed.hostTokenId]!
    if (armed.viaGateway === true) return this.passEventGateway(host, armed.nodeId, subscriptionId, variables)
    const boundary = this.node(armed.nodeId)
    const interrupting = boundary.boundary!.interrupting
    // A timer fires once; a non-interrupting message or signal boundary stays armed.
    if (interrupting || armed.kind === "timer") {
      this.emit({ type: "BoundaryClosed", hostTokenId: host.id, nodeId: armed.nodeId, subscriptionId })
    }
    this.emit({ type: "BoundaryTriggered", hostTokenId: host.id, nodeId: armed.nodeId, subscriptionId, interrupting, variables })
    if (interrupting) this.interrupt(host)
    if (Object.keys(variables).length > 0) this.propagate(host.scopeId, armed.nodeId, variables)
    this.enter(armed.nodeId, null, host.scopeId)
  }

  /** An event subprocess's start event happened (message, signal, timer, condition). */
  private triggerEventStart(armed: Boundary, variables: Readonly<Record<string, unknown>>): void {
    const interrupting = this.node(armed.nodeId).eventStart!.interrupting
    // A timer fires once; a non-interrupting message, signal or condition can start the subprocess again.
    if (interrupting || armed.kind === "timer") {
      this.emit({ type: "BoundaryClosed", hostTokenId: armed.hostTokenId, nodeId: armed.nodeId, subscriptionId: armed.subscriptionId })
    }
    this.emit({ type: "BoundaryTriggered", hostTokenId: armed.hostTokenId, nodeId: armed.nodeId, subscriptionId: armed.subscriptionId, interrupting, variables })
    this.startEventSubprocess(armed.eventScopeId!, armed.nodeId, variables)
  }

  /** The first event after an event-based gateway happened: the gateway moves on through that event only. */
  private passEventGateway(gateway: Token, eventNodeId: string, subscriptionId: string, variables: Readonly<Record<string, unknown>>): void {
    const gatewayNode = this.node(gateway.nodeId)
    this.closeBoundaries(gateway.id)
    this.emit({ type: "BoundaryTriggered", hostTokenId: gateway.id, nodeId: eventNodeId, subscriptionId, interrupting: true, variables })
    this.emit({ type: "ElementCompleted", tokenId: gateway.id, nodeId: gatewayNode.id })
    const flowId = gatewayNode.outgoing.find((id) => this.flow(id).target === eventNodeId)!
    this.emit({ type: "FlowTaken", flowId, tokenId: gateway.id, nodeId: gatewayNode.id })
    const tokenId = this.newId("token")
    this.emit({ type: "ElementActivated", tokenId, nodeId: eventNodeId, scopeId: gateway.scopeId, viaFlow: flowId })
    // The catch event already happened: it completes at once with the payload.
    const eventNode = this.node(eventNodeId)
    this.finishActivity(this.state.tokens[tokenId]!, eventNode, variables)
  }

  /** Ends an activity and everything inside it (its subprocess or multi-instance scope, jobs, tasks, children). */
  private interrupt(host: Token): void {
    const wait = host.wait
    if (wait?.kind === "subprocess" || wait?.kind === "multiInstance") {
      this.terminateScope(wait.scopeId)
      this.emit({ type: "ScopeClosed", scopeId: wait.scopeId, nodeId: host.nodeId })
    }
    const current = this.state.tokens[host.id]
    if (current !== undefined) this.terminateToken(current)
  }

  /**
   * BPMN 10.5.4 / Zeebe: a thrown error is caught by the nearest error boundary event with that code (or without a
   * code) on the activity that threw it or on an enclosing subprocess; the catching activity is interrupted and the
   * boundary path runs. Nothing catches it: an incident at the throwing element.
   */
  throwError(from: Token, errorCode: string, errorMessage: string, variables: Readonly<Record<string, unknown>>): void {
    const catcher = this.findCatcher(from, (node) => node.errorCatch !== null && (node.errorCatch.errorCode === null || node.errorCatch.errorCode === errorCode))
    if (catcher === undefined && this.state.called === true) {
      // Camunda 8: the error goes on to the caller's call activity, and this instance ends.
      this.emit({ type: "ErrorPropagated", tokenId: from.id, nodeId: from.nodeId, errorCode, errorMessage, variables })
      this.terminateAll()
      return this.emit({ type: "InstanceCanceled" })
    }
    if (catcher === undefined) {
      return this.raiseIncident(from, "UNHANDLED_ERROR_EVENT", `error ${errorCode} was thrown at ${from.nodeId} but no error boundary event catches it${errorMessage === "" ? "" : `: ${errorMessage}`}`)
    }
    if (catcher.via === "eventSubprocess") {
      this.emit({ type: "ErrorCaught", tokenId: from.id, nodeId: from.nodeId, errorCode, hostTokenId: this.hostIdOf(catcher.scopeId), boundaryNodeId: catcher.nodeId })
      return this.startEventSubprocess(catcher.scopeId, catcher.nodeId, variables)
    }
    this.emit({ type: "ErrorCaught", tokenId: from.id, nodeId: from.nodeId, errorCode, hostTokenId: catcher.host.id, boundaryNodeId: catcher.nodeId })
    this.interrupt(catcher.host)
    if (Object.keys(variables).length > 0) this.propagate(catcher.host.scopeId, catcher.nodeId, variables)
    this.enter(catcher.nodeId, null, catcher.host.scopeId)
  }

  /**
   * The nearest catcher of a thrown error or escalation, walking outwards from the thrower: boundary events of the
   * throwing activity, then the event subprocesses of its scope, then the boundary events of the subprocess that is
   * that scope, and so on. An event subprocess does not catch what is thrown inside itself.
   */
  private findCatcher(
    from: Token,
    catches: (node: GraphNode) => boolean
  ): { readonly via: "boundary"; readonly host: Token; readonly nodeId: string } | { readonly via: "eventSubprocess"; readonly scopeId: string; readonly nodeId: string } | undefined {
    const boundaryOf = (token: Token): string | undefined =>
      (token.loop ?? null) !== null ? undefined : this.node(token.nodeId).boundaryIds.find((id) => catches(this.node(id)))
    const own = boundaryOf(from)
    if (own !== undefined) return { via: "boundary", host: from, nodeId: own }
    let leftEventSubprocess = false
    for (let scopeId = from.scopeId;;) {
      const eventStartId = leftEventSubprocess ? undefined : this.eventStartsOf(scopeId).find((id) => catches(this.node(id)))
      if (eventStartId !== undefined) return { via: "eventSubprocess", scopeId, nodeId: eventStartId }
      if (scopeId === this.state.instanceId) return undefined
      const scope = this.state.scopes[scopeId]
      if (scope === undefined) return undefined
      const host = this.state.tokens[scope.tokenId]
      const boundaryId = host === undefined ? undefined : boundaryOf(host)
      if (host !== undefined && boundaryId !== undefined) return { via: "boundary", host, nodeId: boundaryId }
      leftEventSubprocess = host !== undefined && this.node(host.nodeId).triggeredByEvent === true
      scopeId = scope.parentId
    }
  }

  /**
   * BPMN 10.5.3 / Camunda 8: an escalation is caught like an error (nearest boundary event on an enclosing subprocess
   * or call activity, or event subprocess, with that code or none). An interrupting catcher ends the scope it guards;
   * a non-interrupting one starts its path alongside and the thrower goes on, as it does when nothing catches it.
   * Returns whether the thrower goes on.
   */
  throwEscalation(from: Token, code: string): boolean {
    const catcher = this.findCatcher(from, (node) => node.escalationCatch != null && (node.escalationCatch.code === null || node.escalationCatch.code === code))
    this.emit({ type: "EscalationThrown", tokenId: from.id, nodeId: from.nodeId, escalationCode: code, caughtBy: catcher?.nodeId ?? null })
    if (catcher === undefined) {
      // The caller's call activity may catch it; if that interrupts, the caller cancels this instance.
      if (this.state.called === true) this.emit({ type: "EscalationPropagated", tokenId: from.id, nodeId: from.nodeId, escalationCode: code })
      return true
    }
    if (catcher.via === "eventSubprocess") {
      const interrupting = this.node(catcher.nodeId).eventStart!.interrupting
      this.startEventSubprocess(catcher.scopeId, catcher.nodeId, {})
      return !interrupting
    }
    const interrupting = this.node(catcher.nodeId).boundary!.interrupting
    if (interrupting) this.interrupt(catcher.host)
    this.enter(catcher.nodeId, null, catcher.host.scopeId)
    return !interrupting
  }

  leave(token: Token, node: GraphNode, flows: ReadonlyArray<string>): void {
    if ((token.loop ?? null) !== null) return this.finishIteration(token, node)
    if (node.boundaryIds.length > 0) this.closeBoundaries(token.id)
    this.emit({ type: "ElementCompleted", tokenId: token.id, nodeId: node.id })
    for (const flowId of flows) {
      const flow = this.flow(flowId)
      this.emit({ type: "FlowTaken", flowId, tokenId: token.id, nodeId: node.id })
      this.enter(flow.target, flowId, token.scopeId)
    }
    if (flows.length === 0) this.completeScopeIfDone(token.scopeId)
  }

  /** A scope with no token left is complete: the instance ends, or the subprocess's token moves on. */
  private completeScopeIfDone(scopeId: string): void {
    if (Object.values(this.state.tokens).some((t) => t.scopeId === scopeId)) return
    // The scope's event subprocesses can no longer start.
    this.closeEventStarts(scopeId)
    const scope = this.state.scopes[scopeId]
    if (scope === undefined) return this.emit({ type: "InstanceCompleted" })
    const node = this.node(scope.nodeId)
    const subprocessToken = this.state.tokens[scope.tokenId]!
    // Output mappings of the subprocess read its scope; without them its local variables end with it.
    const outputs = node.outputs.length > 0 ? this.mapped(subprocessToken, node.outputs, visibleVariables(this.state, scopeId), "output") : {}
    if (outputs === null) return
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
          target = scope.loop !== undefined && name === this.node(scope.nodeId).multiInstance?.outputCollection ? null : scope.id
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

  private terminateToken(token: Token): void {
    this.closeBoundaries(token.id)
    const wait = token.wait
    if (wait?.kind === "job") this.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId: wait.jobId })
    if (wait?.kind === "userTask") this.emit({ type: "UserTaskCanceled", tokenId: token.id, nodeId: token.nodeId, taskId: wait.taskId })
    if (wait?.kind === "message") this.emit({ type: "MessageSubscriptionClosed", tokenId: token.id, nodeId: token.nodeId, subscriptionId: wait.subscriptionId })
    if (wait?.kind === "timer") this.emit({ type: "TimerCanceled", tokenId: token.id, nodeId: token.nodeId, subscriptionId: wait.subscriptionId })
    if (wait?.kind === "signal") this.emit({ type: "SignalSubscriptionClosed", tokenId: token.id, nodeId: token.nodeId, subscriptionId: wait.subscriptionId })
    if (wait?.kind === "incident") {
      const jobId = this.state.incidents[wait.incidentId]?.jobId
      this.emit({ type: "IncidentResolved", incidentId: wait.incidentId, nodeId: token.nodeId })
      if (jobId !== undefined) this.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId })
    }
    if (wait?.kind === "child") this.emit({ type: "ChildInstanceCancelRequested", tokenId: token.id, nodeId: token.nodeId, childInstanceId: wait.childInstanceId })
    this.emit({ type: "ElementTerminated", tokenId: token.id, nodeId: token.nodeId })
  }

  /**
   * Moves a waiting token (Camunda's process instance modification): what it waits on is withdrawn (job, task,
   * subscriptions, incident, everything inside a subprocess) and the target node is activated in the same scope,
   * with its input mappings, as if a flow had led there.
   */
  private moveToken(command: Extract<InstanceCommand, { type: "MoveToken" }>): void {
    const source = this.graph.nodes[command.sourceNodeId]
    if (source === undefined) throw new Rejected("INVALID_ARGUMENT", `sourceNodeId: ${command.sourceNodeId} is not a node of process ${this.graph.key}`)
    const target = this.graph.nodes[command.targetNodeId]
    if (target === undefined) throw new Rejected("INVALID_ARGUMENT", `targetNodeId: ${command.targetNodeId} is not a node of process ${this.graph.key}`)
    if (target.type === "boundaryEvent" || target.triggeredByEvent === true || target.eventStart != null) {
      throw new Rejected("INVALID_ARGUMENT", `targetNodeId: ${target.id} is a ${target.type === "boundaryEvent" ? "boundary event" : "part of an event subprocess's start"}: it is triggered by its event, not by a token`)
    }
    if (target.scope !== source.scope) {
      throw new Rejected("INVALID_ARGUMENT", `targetNodeId: ${target.id} is in ${target.scope ?? "the process"}, the token in ${source.scope ?? "the process"}: a token moves within its scope`)
    }
    const candidates = Object.values(this.state.tokens).filter((t) =>
      t.nodeId === source.id && (t.loop ?? null) === null && (command.tokenId === undefined || t.id === command.tokenId))
    if (candidates.length === 0) {
      throw new Rejected("INVALID_STATE", command.tokenId === undefined ? `no token is at ${source.id}` : `token ${command.tokenId} is not at ${source.id}`)
    }
    if (candidates.length > 1) throw new Rejected("INVALID_ARGUMENT", `tokenId: ${candidates.length} tokens are at ${source.id}; say which one to move`)
    const token = candidates[0]!
    this.emit({ type: "TokenMoved", tokenId: token.id, nodeId: source.id, targetNodeId: target.id })
    this.interrupt(token)
    if (Object.keys(command.variables).length > 0) this.emit({ type: "VariablesSet", nodeId: target.id, scopeId: token.scopeId, variables: command.variables })
    this.enter(target.id, null, token.scopeId)
  }

  /**
   * Migrates the instance to another version (this run's graph is the target's): tokens and the scopes they host
   * move to their mapped nodes; jobs, tasks and subscriptions stay with their tokens. Armed catch events the target
   * has at the same place stay armed, the others are withdrawn, and the target's new ones are armed.
   */
  migrateFrom(source: ProcessGraph, command: Extract<InstanceCommand, { type: "MigrateInstance" }>): void {
    const status = this.state.status
    if (status === "COMPLETED" || status === "CANCELED") throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is ${status.toLowerCase()}`)
    const plan = planMigration(source, this.graph, this.state, command.mappings)
    if (!plan.ok) throw new Rejected("INVALID_ARGUMENT", plan.problems.join("; "))
    this.emit({ type: "InstanceMigrated", targetDeploymentId: command.targetDeploymentId, mappings: plan.mapping })
    for (const token of Object.values(this.state.tokens)) {
      this.emit({ type: "TokenMigrated", tokenId: token.id, nodeId: plan.mapping[token.nodeId]!, sourceNodeId: token.nodeId })
    }
    const sameKind = (armed: Boundary): boolean => {
      const node = this.graph.nodes[armed.nodeId]
      return node !== undefined && triggerOf(node) === armed.kind
    }
    for (const armed of Object.values(this.state.boundaries ?? {})) {
      const host = this.state.tokens[armed.hostTokenId]
      const stillThere = armed.eventScopeId !== undefined
        ? this.eventStartsOf(armed.eventScopeId).includes(armed.nodeId)
        : host !== undefined && (armed.viaGateway === true
          ? this.node(host.nodeId).outgoing.some((flowId) => this.flow(flowId).target === armed.nodeId)
          : this.node(host.nodeId).boundaryIds.includes(armed.nodeId))
      if (!stillThere || !sameKind(armed)) {
        this.emit({ type: "BoundaryClosed", hostTokenId: armed.hostTokenId, nodeId: armed.nodeId, subscriptionId: armed.subscriptionId })
      }
    }
    const armedAt = (hostId: string) => new Set(Object.values(this.state.boundaries ?? {}).filter((b) => b.hostTokenId === hostId).map((b) => b.nodeId))
    for (const token of Object.values(this.state.tokens)) {
      if ((token.loop ?? null) !== null || token.wait === null || token.wait.kind === "join" || token.wait.kind === "incident") continue
      const node = this.node(token.nodeId)
      const armed = armedAt(token.id)
      const gateway = node.type === "eventBasedGateway"
      const wanted = gateway ? node.outgoing.map((flowId) => this.flow(flowId).target) : node.boundaryIds
      const missing = wanted.filter((id) => !armed.has(id))
      if (missing.length > 0) this.openBoundaries(token, token, missing, gateway ? { viaGateway: true } : {})
    }
    for (const scopeId of [this.state.instanceId, ...Object.keys(this.state.scopes)]) {
      const hostId = this.hostIdOf(scopeId)
      const armed = new Set(Object.values(this.state.boundaries ?? {}).filter((b) => b.eventScopeId === scopeId).map((b) => b.nodeId))
      const missing = this.eventStartsOf(scopeId).filter((id) => !armed.has(id))
      const failing = this.state.tokens[hostId] ?? Object.values(this.state.tokens).find((t) => t.scopeId === scopeId)
      if (missing.length > 0 && failing !== undefined) this.openBoundaries({ id: hostId, scopeId }, failing, missing, { eventScopeId: scopeId })
    }
  }

  /**
   * Resolves an incident: `retry` runs its node again from the start (a dead-lettered job just becomes activatable
   * again, with one retry); `skip` goes past the node as if it had completed, without its result. Whatever the node
   * had opened (boundary events, a subprocess's content, a failed job) is withdrawn first.
   */
  private resolveIncident(command: Extract<InstanceCommand, { type: "ResolveIncident" }>): void {
    const incident = this.state.incidents[command.incidentId]
    if (incident === undefined) throw new Rejected("NOT_FOUND", `incident ${command.incidentId} is not open in this instance`)
    const token = this.state.tokens[incident.tokenId]
    if (token === undefined) throw new Rejected("INVALID_STATE", `incident ${command.incidentId} has no token to resume`)
    if (command.restoreVariables !== undefined) {
      for (const name of Object.keys(this.state.variables)) {
        if (!(name in command.restoreVariables)) this.emit({ type: "VariableRemoved", scopeId: this.state.instanceId, name })
      }
      this.emit({ type: "VariablesSet", nodeId: null, scopeId: this.state.instanceId, variables: command.restoreVariables })
    }
    if (command.variables !== undefined && Object.keys(command.variables).length > 0) this.propagate(token.scopeId, null, command.variables)
    this.emit({ type: "IncidentResolved", incidentId: incident.id, nodeId: incident.nodeId })
    const node = this.node(token.nodeId)
    if (command.action === "retry" && incident.jobId !== undefined) {
      return this.emit({ type: "JobRetriesUpdated", tokenId: token.id, nodeId: token.nodeId, jobId: incident.jobId, retries: 1 })
    }
    if (incident.jobId !== undefined) this.emit({ type: "JobCanceled", tokenId: token.id, nodeId: token.nodeId, jobId: incident.jobId })
    // What the node opened before it failed goes; a retry opens it again.
    this.closeBoundaries(token.id)
    if (node.type === "startEvent") this.closeEventStarts(token.scopeId)
    for (const scope of Object.values(this.state.scopes).filter((s) => s.tokenId === token.id && s.parentId === token.scopeId)) {
      this.terminateScope(scope.id)
      this.emit({ type: "ScopeClosed", scopeId: scope.id, nodeId: scope.nodeId })
    }
    if (command.action === "retry") {
      this.emit({ type: "NodeRetried", tokenId: token.id, nodeId: token.nodeId, incidentId: incident.id })
      this.work.push(() => this.activate(token.id))
      return
    }
    this.emit({ type: "NodeSkipped", tokenId: token.id, nodeId: token.nodeId, incidentId: incident.id })
    const current = this.state.tokens[token.id]!
    this.leave(current, node, this.takeableFlows(current, node, visibleVariables(this.state, current.scopeId)))
  }

  terminateAll(): void {
    this.closeEventStarts(this.state.instanceId)
    this.terminateScope(this.state.instanceId)
  }

  private tokenWaitingFor(kind: "job" | "userTask" | "message" | "signal" | "timer" | "child" | "decision", id: string): Token {
    const token = Object.values(this.state.tokens).find((t) =>
      kind === "job"
        ? t.wait?.kind === "job" && t.wait.jobId === id
        : kind === "userTask"
        ? t.wait?.kind === "userTask" && t.wait.taskId === id
        : kind === "child"
        ? t.wait?.kind === "child" && t.wait.childInstanceId === id
        : kind === "decision"
        ? t.wait?.kind === "decision" && t.wait.evaluationId === id
        : kind === "signal"
        ? t.wait?.kind === "signal" && t.wait.subscriptionId === id
        : kind === "timer"
        ? t.wait?.kind === "timer" && t.wait.subscriptionId === id
        : t.wait?.kind === "message" && t.wait.subscriptionId === id)
    const name = kind === "job" ? "job" : kind === "userTask" ? "task" : kind === "child" ? "child instance" : kind === "decision" ? "decision evaluation" : kind === "signal" ? "signal subscription" : kind === "timer" ? "timer" : "message subscription"
    if (token === undefined) throw new Rejected("NOT_FOUND", `${name} ${id} is not open in this instance`)
    return token
  }

  command(command: InstanceCommand): void {
    const status = this.state.status
    if (status === "COMPLETED" || status === "CANCELED") {
      throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is ${status.toLowerCase()}`)
    }
    switch (command.type) {
      case "StartInstance":
        throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} already started`)
      case "ThrowError": {
        const token = this.tokenWaitingFor("job", command.jobId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        this.emit({ type: "JobErrorThrown", tokenId: token.id, nodeId: token.nodeId, jobId: command.jobId, errorCode: command.errorCode, errorMessage: command.errorMessage })
        this.throwError(this.state.tokens[token.id]!, command.errorCode, command.errorMessage, command.variables)
        return this.drain()
      }
      case "FailJob": {
        const token = this.tokenWaitingFor("job", command.jobId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        const retries = Math.max(0, command.retries)
        // Variables a failing worker reports (what it learned) are kept for the next attempt.
        if (command.variables !== undefined && Object.keys(command.variables).length > 0) this.propagate(token.scopeId, token.nodeId, command.variables)
        this.emit({
          type: "JobFailed", tokenId: token.id, nodeId: token.nodeId, jobId: command.jobId, retries, errorMessage: command.errorMessage,
          retryAt: retries > 0 ? command.retryAt : null
        })
        // Retries used up: the job is dead-lettered into an incident (Camunda: JOB_NO_RETRIES).
        if (retries === 0) {
          this.emit({
            type: "IncidentRaised",
            incidentId: this.newId("incident"),
            tokenId: token.id,
            nodeId: token.nodeId,
            incidentType: command.incidentType ?? "JOB_NO_RETRIES",
            message: command.errorMessage === "" ? `job ${command.jobId} failed and has no retries left` : command.errorMessage,
            jobId: command.jobId
          })
        }
        return
      }
      case "UpdateJobRetries": {
        if (command.retries < 1) throw new Rejected("INVALID_ARGUMENT", "retries: must be at least 1")
        const waiting = Object.values(this.state.tokens).find((t) => t.wait?.kind === "job" && t.wait.jobId === command.jobId)
        if (waiting !== undefined) return this.emit({ type: "JobRetriesUpdated", tokenId: waiting.id, nodeId: waiting.nodeId, jobId: command.jobId, retries: command.retries })
        const incident = Object.values(this.state.incidents).find((i) => i.jobId === command.jobId)
        if (incident === undefined) throw new Rejected("NOT_FOUND", `job ${command.jobId} is not open in this instance`)
        // New retries for a dead-lettered job resolve its incident: the job can be activated again.
        this.emit({ type: "IncidentResolved", incidentId: incident.id, nodeId: incident.nodeId })
        return this.emit({ type: "JobRetriesUpdated", tokenId: incident.tokenId, nodeId: incident.nodeId, jobId: command.jobId, retries: command.retries })
      }
      case "ResolveIncident":
        if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is suspended: resume it before resolving incidents`)
        return this.resolveIncident(command)
      case "DecisionFailed": {
        const token = this.tokenWaitingFor("decision", command.evaluationId)
        return this.emit({
          type: "IncidentRaised", incidentId: this.newId("incident"), tokenId: token.id, nodeId: token.nodeId, incidentType: "DECISION_EVALUATION_ERROR", message: command.message
        })
      }
      case "DecisionEvaluated": {
        const token = this.tokenWaitingFor("decision", command.evaluationId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        const node = this.node(token.nodeId)
        this.emit({ type: "DecisionEvaluated", tokenId: token.id, nodeId: node.id, evaluationId: command.evaluationId, result: command.result })
        // SERVICE.md: every output column becomes a process variable; the whole result goes to resultVariable.
        this.finishActivity(token, node, { ...command.outputs, [node.decision!.resultVariable]: command.result })
        return this.drain()
      }
      case "ChildInstanceFailed": {
        const token = this.tokenWaitingFor("child", command.childInstanceId)
        return this.emit({
          type: "IncidentRaised", incidentId: this.newId("incident"), tokenId: token.id, nodeId: token.nodeId, incidentType: "CALLED_ELEMENT_ERROR", message: command.message
        })
      }
      case "ChildErrorThrown": {
        // An error the called instance did not catch: thrown at the call activity, as if the activity threw it.
        const token = this.tokenWaitingFor("child", command.childInstanceId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        this.emit({ type: "ChildErrorReceived", tokenId: token.id, nodeId: token.nodeId, childInstanceId: command.childInstanceId, errorCode: command.errorCode })
        this.throwError(this.state.tokens[token.id]!, command.errorCode, command.errorMessage, command.variables)
        return this.drain()
      }
      case "ChildEscalated": {
        const token = this.tokenWaitingFor("child", command.childInstanceId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        this.throwEscalation(token, command.escalationCode)
        return this.drain()
      }
      case "ChildInstanceCompleted": {
        const token = this.tokenWaitingFor("child", command.childInstanceId)
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        const node = this.node(token.nodeId)
        this.emit({ type: "ChildInstanceCompleted", tokenId: token.id, nodeId: node.id, childInstanceId: command.childInstanceId, variables: command.variables })
        // Zeebe: output mappings pick what comes back; without them, propagateAllChildVariables brings every child
        // variable back (default) or none.
        this.finishActivity(token, node, node.outputs.length > 0 || node.call!.propagateAllChildVariables ? command.variables : {})
        return this.drain()
      }
      case "CompleteJob":
      case "CompleteUserTask":
      case "CorrelateMessage":
      case "TriggerSignal":
      case "FireTimer": {
        if (command.type !== "CompleteJob" && command.type !== "CompleteUserTask" && this.state.boundaries?.[command.subscriptionId] !== undefined) {
          if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
          this.triggerBoundary(command.subscriptionId, command.type === "FireTimer" ? {} : command.variables)
          return this.drain()
        }
        const token = command.type === "CompleteJob"
          ? this.tokenWaitingFor("job", command.jobId)
          : command.type === "CompleteUserTask"
          ? this.tokenWaitingFor("userTask", command.taskId)
          : command.type === "TriggerSignal"
          ? this.tokenWaitingFor("signal", command.subscriptionId)
          : command.type === "FireTimer"
          ? this.tokenWaitingFor("timer", command.subscriptionId)
          : this.tokenWaitingFor("message", command.subscriptionId)
        // While suspended no token moves: the completion is held and applied on resume, in arrival order.
        if (status === "SUSPENDED") return this.emit({ type: "CommandDeferred", command })
        const node = this.node(token.nodeId)
        if (command.type === "CompleteJob") {
          this.emit({ type: "JobCompleted", tokenId: token.id, nodeId: node.id, jobId: command.jobId, variables: command.variables })
        } else if (command.type === "FireTimer") {
          this.emit({ type: "TimerFired", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId })
        } else if (command.type === "TriggerSignal") {
          this.emit({ type: "SignalTriggered", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId, variables: command.variables })
        } else if (command.type === "CorrelateMessage") {
          this.emit({ type: "MessageCorrelated", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId, variables: command.variables })
        } else {
          this.emit({ type: "UserTaskCompleted", tokenId: token.id, nodeId: node.id, taskId: command.taskId, variables: command.variables })
        }
        this.finishActivity(token, node, command.type === "FireTimer" ? {} : command.variables)
        return this.drain()
      }
      case "SetVariables":
        // Optimistic locking: a caller that read version N may only write over version N.
        if (command.expectedVersion !== undefined && command.expectedVersion !== this.state.variablesVersion) {
          throw new Rejected("CONFLICT", `stale expectedVersion ${command.expectedVersion}: the variables are at version ${this.state.variablesVersion}`)
        }
        return this.emit({ type: "VariablesSet", nodeId: null, scopeId: this.state.instanceId, variables: command.variables })
      case "SetScopeVariable": {
        if (command.scopeId !== this.state.instanceId && this.state.scopes[command.scopeId] === undefined) {
          throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
        }
        return this.emit({ type: "VariablesSet", nodeId: null, scopeId: command.scopeId, variables: { [command.name]: command.value } })
      }
      case "RemoveScopeVariable": {
        const scope = this.state.scopes[command.scopeId]
        const local = command.scopeId === this.state.instanceId ? this.state.variables : scope?.variables
        if (local === undefined) throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
        if (!(command.name in local)) throw new Rejected("NOT_FOUND", `variable ${command.name} not found in scope ${command.scopeId}`)
        return this.emit({ type: "VariableRemoved", scopeId: command.scopeId, name: command.name })
      }
      case "SetNodeVariables":
        if (this.graph.nodes[command.nodeId] === undefined) throw new Rejected("NOT_FOUND", `node ${command.nodeId} not found`)
        return this.emit({ type: "NodeVariablesSet", nodeId: command.nodeId, variables: command.variables })
      case "MoveToken":
        if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is suspended: resume it before moving a token`)
        return this.moveToken(command)
      case "MigrateInstance":
        throw new Rejected("INVALID_ARGUMENT", "a migration needs the target version's graph (use migrate)")
      case "CancelInstance":
        this.terminateAll()
        return this.emit({ type: "InstanceCanceled" })
      case "SuspendInstance":
        if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is already suspended`)
        return this.emit({ type: "InstanceSuspended" })
      case "ResumeInstance": {
        if (status !== "SUSPENDED") throw new Rejected("INVALID_STATE", `process instance ${this.state.instanceId} is not suspended`)
        this.emit({ type: "InstanceResumed" })
        const held = this.state.deferred
        if (held.length === 0) return
        this.emit({ type: "DeferredCommandsReleased" })
        for (const deferred of held) {
          try {
            this.command(deferred)
          } catch (error) {
            // A held command that no longer applies (its job was canceled meanwhile) is dropped.
            if (!(error instanceof Rejected)) throw error
          }
        }
        return
      }
    }
  }
}

/** Migrates an instance from the graph of its version (`source`) to the target version's graph. */
export const migrate = (
  source: ProcessGraph,
  target: ProcessGraph,
  instanceId: string,
  state: InstanceState,
  command: Extract<InstanceCommand, { type: "MigrateInstance" }>,
  now = 0
): ExecuteResult => {
  try {
    const run = new Run(target, state, now)
    run.migrateFrom(source, command)
    run.drain()
    return { ok: true, state: run.state, events: run.events }
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, reason: error.reason, message: error.message }
    throw error
  }
}

export const execute = (
  graph: ProcessGraph,
  instanceId: string,
  state: InstanceState | undefined,
  command: InstanceCommand,
  now = 0,
  /** Play mode only: the flow to take at these gateways. */
  chosenFlows: Readonly<Record<string, string>> = {}
): ExecuteResult => {
  try {
    if (state === undefined) {
      if (command.type !== "StartInstance") return { ok: false, reason: "NOT_FOUND", message: `process instance ${instanceId} not found` }
      const startNodeId = command.startNodeId ?? graph.startNodeIds[0]
      if (startNodeId === undefined) {
        return { ok: false, reason: "INVALID_STATE", message: `process ${graph.key} has no none start event: it starts only by message` }
      }
      const eventStart = (graph.messageStarts ?? []).some((m) => m.nodeId === startNodeId) ||
        (graph.signalStarts ?? []).some((m) => m.nodeId === startNodeId) ||
        (graph.conditionalStarts ?? []).some((m) => m.nodeId === startNodeId) ||
        (graph.timerStarts ?? []).some((m) => m.nodeId === startNodeId)
      if (!graph.startNodeIds.includes(startNodeId) && !eventStart) {
        return { ok: false, reason: "INVALID_ARGUMENT", message: `${startNodeId} is not a start event of process ${graph.key}` }
      }
      const run = new Run(graph, initialState(instanceId), now, chosenFlows)
      run.emit({ type: "InstanceStarted", variables: command.variables, ...(command.called === true ? { called: true } : {}) })
      run.enter(startNodeId, null, instanceId)
      run.drain()
      return { ok: true, state: run.state, events: run.events }
    }
    const run = new Run(graph, state, now, chosenFlows)
    run.command(command)
    run.drain()
    return { ok: true, state: run.state, events: run.events }
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, reason: error.reason, message: error.message }
    throw error
  }
}

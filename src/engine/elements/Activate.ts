// Activating a token at its node: what each kind of element does when a token arrives (the activation switch; the
// next step splits it into one file per element family with a registry).
import { evaluateFeel, isExpression } from "../../bpmn/Expressions.ts"
import type { GraphNode } from "../../bpmn/ProcessGraph.ts"
import { dueAt } from "../../bpmn/Timer.ts"
import { type Boundary, type Token, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

export function activate(run: Run, tokenId: string): void {
  const token = run.state.tokens[tokenId]
  if (token === undefined) return
  const node = run.node(token.nodeId)
  // Boundary events are armed while their host runs (for a multi-instance activity: its body).
  if (node.boundaryIds.length > 0 && (token.loop ?? null) === null && !run.openBoundaries(token, token, node.boundaryIds)) return
  // A multi-instance activity first becomes its body; each iteration is a token of its own (with loop set).
  if (node.multiInstance !== null && (token.loop ?? null) === null) return run.startMultiInstance(token, node)
  const outer = { ...visibleVariables(run.state, token.scopeId), ...run.state.nodeVariables[node.id] }
  const locals = run.mapped(token, node.inputs, outer, "input")
  if (locals === null) return
  const visible = { ...outer, ...locals }
  switch (node.type) {
    case "startEvent": {
      // Entering a scope (the process or a subprocess) arms the start events of its event subprocesses.
      const eventStarts = run.eventStartsOf(token.scopeId)
      if (eventStarts.length > 0 && !run.openBoundaries({ id: run.hostIdOf(token.scopeId), scopeId: token.scopeId }, token, eventStarts, { eventScopeId: token.scopeId })) return
      return run.leave(token, node, run.takeableFlows(token, node, visible))
    }
    case "intermediateThrowEvent":
      if (node.job !== null) return run.createJob(token, node, visible)
      if (node.escalationThrow != null && !run.throwEscalation(token, node.escalationThrow.code)) return
      if (node.link?.target != null) {
        // A link is a jump: the token continues at the catch link as if a flow led there.
        run.emit({ type: "ElementCompleted", tokenId, nodeId: node.id })
        return run.enter(node.link.target, null, token.scopeId)
      }
      if (node.signalThrow != null) run.emit({ type: "SignalThrown", tokenId, nodeId: node.id, signalName: node.signalThrow.name, variables: locals })
      return run.leave(token, node, run.takeableFlows(token, node, visible))
    case "boundaryEvent":
    case "task":
    case "manualTask":
      return run.leave(token, node, run.takeableFlows(token, node, visible))
    case "scriptTask": {
      const script = node.script!
      const outcome = evaluateFeel(isExpression(script.expression) ? script.expression : `=${script.expression}`, visible)
      if (!outcome.ok) return run.raiseIncident(token, "EXPRESSION_ERROR", `script of ${node.id} failed: ${outcome.message}`)
      return run.finishActivity(token, node, { [script.resultVariable]: outcome.value })
    }
    case "serviceTask":
    case "sendTask":
      return run.createJob(token, node, visible)
    case "userTask": {
      const definition = node.userTask!
      const evaluate = (value: string | null): string | null => {
        if (value === null) return null
        const outcome = evaluateFeel(value, visible)
        return outcome.ok && outcome.value !== null ? String(outcome.value) : null
      }
      run.emit({
        type: "UserTaskCreated",
        tokenId,
        nodeId: node.id,
        taskId: run.newId("task"),
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
        const due = dueAt(node.timer, run.now, visible)
        if (!due.ok) return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `timer of ${node.id} failed: ${due.message}`)
        run.emit({ type: "TimerScheduled", tokenId, nodeId: node.id, subscriptionId: run.newId("timer"), dueAt: new Date(due.dueAt).toISOString() })
        return
      }
      if (node.signal !== null) {
        run.emit({ type: "SignalSubscriptionOpened", tokenId, nodeId: node.id, subscriptionId: run.newId("subscription"), signalName: node.signal.name })
        return
      }
      if (node.link != null) return run.leave(token, node, run.takeableFlows(token, node, visible))
      if (node.condition != null) {
        // A condition already true lets the token pass at once; else it waits until a variable change makes it true.
        if (run.conditionHolds(node.condition, run.state, token.scopeId)) return run.leave(token, node, run.takeableFlows(token, node, visible))
        run.emit({ type: "ConditionSubscribed", tokenId, nodeId: node.id })
        return
      }
      // The correlation key is evaluated when the token arrives and stored with the subscription (SERVICE.md, Events).
      const message = node.message!
      const key = evaluateFeel(message.correlationKey, visible)
      if (!key.ok) return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} failed: ${key.message}`)
      if (typeof key.value !== "string" && typeof key.value !== "number") {
        return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} must be a string or a number, got ${key.value === null ? "null" : typeof key.value}`)
      }
      run.emit({
        type: "MessageSubscriptionOpened", tokenId, nodeId: node.id, subscriptionId: run.newId("subscription"), messageName: message.name, correlationKey: String(key.value)
      })
      return
    }
    case "exclusiveGateway": {
      const chosen = run.chosenFlow(node)
      if (chosen !== undefined) return run.leave(token, node, [chosen])
      // BPMN 13.3.2: the first outgoing flow (in order) whose condition is true; else the default flow.
      for (const flowId of node.outgoing) {
        if (flowId === node.defaultFlow) continue
        const condition = run.flow(flowId).condition
        if (condition === null) return run.leave(token, node, [flowId])
        const outcome = evaluateFeel(isExpression(condition) ? condition : `=${condition}`, visible)
        if (!outcome.ok) return run.raiseIncident(token, "CONDITION_ERROR", `condition of flow ${flowId} failed: ${outcome.message}`)
        if (outcome.value === true) return run.leave(token, node, [flowId])
      }
      if (node.defaultFlow !== null) return run.leave(token, node, [node.defaultFlow])
      return run.raiseIncident(token, "CONDITION_ERROR", `no outgoing flow of gateway ${node.id} has a true condition and there is no default flow`)
    }
    case "parallelGateway": {
      if (node.incoming.length <= 1) return run.leave(token, node, node.outgoing)
      // BPMN 13.3.3: the join fires once a token has arrived on every incoming flow.
      run.emit({ type: "JoinArrived", tokenId, nodeId: node.id })
      const arrived = Object.values(run.state.tokens).filter((t) => t.nodeId === node.id && t.wait?.kind === "join")
      const pick = node.incoming.map((flowId) => arrived.find((t) => t.viaFlow === flowId))
      if (pick.some((t) => t === undefined)) return
      const consumed = pick as Array<Token>
      for (const other of consumed.slice(1)) run.emit({ type: "ElementCompleted", tokenId: other.id, nodeId: node.id })
      return run.leave(consumed[0]!, node, node.outgoing)
    }
    case "businessRuleTask": {
      // The decision is evaluated outside the core (it reads deployed decisions); the token waits for the answer.
      run.emit({
        type: "DecisionRequested", tokenId, nodeId: node.id, evaluationId: run.newId("decision"), decisionId: node.decision!.decisionId, variables: visible
      })
      return
    }
    case "callActivity": {
      // The child is an instance of the latest version of the called process; it gets the parent's visible
      // variables plus the input mappings, and the parent waits until it ends.
      const call = node.call!
      run.emit({
        type: "ChildInstanceRequested", tokenId, nodeId: node.id, childInstanceId: run.newId("child"), processKey: call.processId, variables: visible
      })
      return
    }
    case "subProcess": {
      // An embedded subprocess is a variable scope of its own: its input mappings are its local variables.
      const scopeId = run.newId("scope")
      run.emit({ type: "ScopeOpened", scopeId, parentScopeId: token.scopeId, nodeId: node.id, tokenId, variables: { ...run.state.nodeVariables[node.id], ...locals } })
      return run.enter(node.startNodeIds[0]!, null, scopeId)
    }
    case "eventBasedGateway": {
      // BPMN 13.3.5: the gateway waits for the first of the events after it; the others are withdrawn.
      run.openBoundaries(token, token, node.outgoing.map((flowId) => run.flow(flowId).target), { viaGateway: true })
      return
    }
    case "inclusiveGateway": {
      if (node.incoming.length <= 1) return run.inclusiveFork(token, node)
      // Join: wait here; fireReadyInclusiveJoins decides when nothing more can arrive.
      run.emit({ type: "JoinArrived", tokenId, nodeId: node.id })
      return
    }
    case "endEvent": {
      if (node.errorThrow !== null) return run.throwError(token, node.errorThrow.errorCode, "", {})
      if (node.job !== null) return run.createJob(token, node, visible)
      if (node.signalThrow != null) run.emit({ type: "SignalThrown", tokenId, nodeId: node.id, signalName: node.signalThrow.name, variables: locals })
      if (node.escalationThrow != null && !run.throwEscalation(token, node.escalationThrow.code)) return
      run.emit({ type: "ElementCompleted", tokenId, nodeId: node.id })
      // A terminate end event ends every other path of its scope: the instance, or its subprocess (BPMN 13.5.6).
      if (node.terminate) run.terminateScope(token.scopeId)
      return run.completeScopeIfDone(token.scopeId)
    }
  }
}

export function createJob(run: Run, token: Token, node: GraphNode, visible: Readonly<Record<string, unknown>>): void {
  const job = node.job!
  run.emit({
    type: "JobCreated", tokenId: token.id, nodeId: node.id, jobId: run.newId("job"), jobType: job.type, retries: job.retries, headers: job.headers, variables: visible
  })
}

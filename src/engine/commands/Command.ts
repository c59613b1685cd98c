// Commands that arrive from outside (jobs, user tasks, correlation, timers, variables, lifecycle, children, decisions):
// each finds the token it concerns and moves it on.
import type { InstanceCommand } from "../InstanceCommands.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

export function command(run: Run, command: InstanceCommand): void {
  const status = run.state.status
  if (status === "COMPLETED" || status === "CANCELED") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is ${status.toLowerCase()}`)
  }
  switch (command.type) {
    case "StartInstance":
      throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} already started`)
    case "ThrowError": {
      const token = run.tokenWaitingFor("job", command.jobId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      run.emit({ type: "JobErrorThrown", tokenId: token.id, nodeId: token.nodeId, jobId: command.jobId, errorCode: command.errorCode, errorMessage: command.errorMessage })
      run.throwError(run.state.tokens[token.id]!, command.errorCode, command.errorMessage, command.variables)
      return run.drain()
    }
    case "FailJob": {
      const token = run.tokenWaitingFor("job", command.jobId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      const retries = Math.max(0, command.retries)
      // Variables a failing worker reports (what it learned) are kept for the next attempt.
      if (command.variables !== undefined && Object.keys(command.variables).length > 0) run.propagate(token.scopeId, token.nodeId, command.variables)
      run.emit({
        type: "JobFailed", tokenId: token.id, nodeId: token.nodeId, jobId: command.jobId, retries, errorMessage: command.errorMessage,
        retryAt: retries > 0 ? command.retryAt : null
      })
      // Retries used up: the job is dead-lettered into an incident (Camunda: JOB_NO_RETRIES).
      if (retries === 0) {
        run.emit({
          type: "IncidentRaised",
          incidentId: run.newId("incident"),
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
      const waiting = Object.values(run.state.tokens).find((t) => t.wait?.kind === "job" && t.wait.jobId === command.jobId)
      if (waiting !== undefined) return run.emit({ type: "JobRetriesUpdated", tokenId: waiting.id, nodeId: waiting.nodeId, jobId: command.jobId, retries: command.retries })
      const incident = Object.values(run.state.incidents).find((i) => i.jobId === command.jobId)
      if (incident === undefined) throw new Rejected("NOT_FOUND", `job ${command.jobId} is not open in this instance`)
      // New retries for a dead-lettered job resolve its incident: the job can be activated again.
      run.emit({ type: "IncidentResolved", incidentId: incident.id, nodeId: incident.nodeId })
      return run.emit({ type: "JobRetriesUpdated", tokenId: incident.tokenId, nodeId: incident.nodeId, jobId: command.jobId, retries: command.retries })
    }
    case "ResolveIncident":
      if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is suspended: resume it before resolving incidents`)
      return run.resolveIncident(command)
    case "DecisionFailed": {
      const token = run.tokenWaitingFor("decision", command.evaluationId)
      return run.emit({
        type: "IncidentRaised", incidentId: run.newId("incident"), tokenId: token.id, nodeId: token.nodeId, incidentType: "DECISION_EVALUATION_ERROR", message: command.message
      })
    }
    case "DecisionEvaluated": {
      const token = run.tokenWaitingFor("decision", command.evaluationId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      const node = run.node(token.nodeId)
      run.emit({ type: "DecisionEvaluated", tokenId: token.id, nodeId: node.id, evaluationId: command.evaluationId, result: command.result })
      // SERVICE.md: every output column becomes a process variable; the whole result goes to resultVariable.
      run.finishActivity(token, node, { ...command.outputs, [node.decision!.resultVariable]: command.result })
      return run.drain()
    }
    case "ChildInstanceFailed": {
      const token = run.tokenWaitingFor("child", command.childInstanceId)
      return run.emit({
        type: "IncidentRaised", incidentId: run.newId("incident"), tokenId: token.id, nodeId: token.nodeId, incidentType: "CALLED_ELEMENT_ERROR", message: command.message
      })
    }
    case "ChildErrorThrown": {
      // An error the called instance did not catch: thrown at the call activity, as if the activity threw it.
      const token = run.tokenWaitingFor("child", command.childInstanceId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      run.emit({ type: "ChildErrorReceived", tokenId: token.id, nodeId: token.nodeId, childInstanceId: command.childInstanceId, errorCode: command.errorCode })
      run.throwError(run.state.tokens[token.id]!, command.errorCode, command.errorMessage, command.variables)
      return run.drain()
    }
    case "ChildEscalated": {
      const token = run.tokenWaitingFor("child", command.childInstanceId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      run.throwEscalation(token, command.escalationCode)
      return run.drain()
    }
    case "ChildInstanceCompleted": {
      const token = run.tokenWaitingFor("child", command.childInstanceId)
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      const node = run.node(token.nodeId)
      run.emit({ type: "ChildInstanceCompleted", tokenId: token.id, nodeId: node.id, childInstanceId: command.childInstanceId, variables: command.variables })
      // Zeebe: output mappings pick what comes back; without them, propagateAllChildVariables brings every child
      // variable back (default) or none.
      run.finishActivity(token, node, node.outputs.length > 0 || node.call!.propagateAllChildVariables ? command.variables : {})
      return run.drain()
    }
    case "CompleteJob":
    case "CompleteUserTask":
    case "CorrelateMessage":
    case "TriggerSignal":
    case "FireTimer": {
      if (command.type !== "CompleteJob" && command.type !== "CompleteUserTask" && run.state.boundaries?.[command.subscriptionId] !== undefined) {
        if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
        run.triggerBoundary(command.subscriptionId, command.type === "FireTimer" ? {} : command.variables)
        return run.drain()
      }
      const token = command.type === "CompleteJob"
        ? run.tokenWaitingFor("job", command.jobId)
        : command.type === "CompleteUserTask"
        ? run.tokenWaitingFor("userTask", command.taskId)
        : command.type === "TriggerSignal"
        ? run.tokenWaitingFor("signal", command.subscriptionId)
        : command.type === "FireTimer"
        ? run.tokenWaitingFor("timer", command.subscriptionId)
        : run.tokenWaitingFor("message", command.subscriptionId)
      // While suspended no token moves: the completion is held and applied on resume, in arrival order.
      if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
      const node = run.node(token.nodeId)
      if (command.type === "CompleteJob") {
        run.emit({ type: "JobCompleted", tokenId: token.id, nodeId: node.id, jobId: command.jobId, variables: command.variables })
      } else if (command.type === "FireTimer") {
        run.emit({ type: "TimerFired", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId })
      } else if (command.type === "TriggerSignal") {
        run.emit({ type: "SignalTriggered", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId, variables: command.variables })
      } else if (command.type === "CorrelateMessage") {
        run.emit({ type: "MessageCorrelated", tokenId: token.id, nodeId: node.id, subscriptionId: command.subscriptionId, variables: command.variables })
      } else {
        run.emit({ type: "UserTaskCompleted", tokenId: token.id, nodeId: node.id, taskId: command.taskId, variables: command.variables })
      }
      run.finishActivity(token, node, command.type === "FireTimer" ? {} : command.variables)
      return run.drain()
    }
    case "SetVariables":
      // Optimistic locking: a caller that read version N may only write over version N.
      if (command.expectedVersion !== undefined && command.expectedVersion !== run.state.variablesVersion) {
        throw new Rejected("CONFLICT", `stale expectedVersion ${command.expectedVersion}: the variables are at version ${run.state.variablesVersion}`)
      }
      return run.emit({ type: "VariablesSet", nodeId: null, scopeId: run.state.instanceId, variables: command.variables })
    case "SetScopeVariable": {
      if (command.scopeId !== run.state.instanceId && run.state.scopes[command.scopeId] === undefined) {
        throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
      }
      return run.emit({ type: "VariablesSet", nodeId: null, scopeId: command.scopeId, variables: { [command.name]: command.value } })
    }
    case "RemoveScopeVariable": {
      const scope = run.state.scopes[command.scopeId]
      const local = command.scopeId === run.state.instanceId ? run.state.variables : scope?.variables
      if (local === undefined) throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
      if (!(command.name in local)) throw new Rejected("NOT_FOUND", `variable ${command.name} not found in scope ${command.scopeId}`)
      return run.emit({ type: "VariableRemoved", scopeId: command.scopeId, name: command.name })
    }
    case "SetNodeVariables":
      if (run.graph.nodes[command.nodeId] === undefined) throw new Rejected("NOT_FOUND", `node ${command.nodeId} not found`)
      return run.emit({ type: "NodeVariablesSet", nodeId: command.nodeId, variables: command.variables })
    case "MoveToken":
      if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is suspended: resume it before moving a token`)
      return run.moveToken(command)
    case "MigrateInstance":
      throw new Rejected("INVALID_ARGUMENT", "a migration needs the target version's graph (use migrate)")
    case "CancelInstance":
      run.terminateAll()
      return run.emit({ type: "InstanceCanceled" })
    case "SuspendInstance":
      if (status !== "ACTIVE") throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is already suspended`)
      return run.emit({ type: "InstanceSuspended" })
    case "ResumeInstance": {
      if (status !== "SUSPENDED") throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is not suspended`)
      run.emit({ type: "InstanceResumed" })
      const held = run.state.deferred
      if (held.length === 0) return
      run.emit({ type: "DeferredCommandsReleased" })
      for (const deferred of held) {
        try {
          run.command(deferred)
        } catch (error) {
          // A held command that no longer applies (its job was canceled meanwhile) is dropped.
          if (!(error instanceof Rejected)) throw error
        }
      }
      return
    }
  }
}

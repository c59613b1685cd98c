// Commands about a job other than its completion (commands/Waits.ts): a business error thrown, a failure (with
// retries left, or dead-lettered into an incident), new retries.
import { isProcessListener } from "../behaviours/ProcessListeners.ts"
import { Rejected } from "../Rejected.ts"
import { tokenWaitingFor } from "./AwaitedToken.ts"
import type { CommandHandler } from "./Handler.ts"

export const throwError: CommandHandler<"ThrowError"> = (run, command, status) => {
  const token = tokenWaitingFor(run.state, "job", command.jobId)
  if (isProcessListener(run, token)) {
    throw new Rejected("INVALID_STATE", `job ${command.jobId} is a process execution listener's: it throws no error`)
  }
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  run.emit({
    type: "JobErrorThrown",
    tokenId: token.id,
    nodeId: token.nodeId,
    jobId: command.jobId,
    errorCode: command.errorCode,
    errorMessage: command.errorMessage
  })
  run.throwError(run.state.tokens[token.id]!, command.errorCode, command.errorMessage, command.variables)
  return run.drain()
}

export const failJob: CommandHandler<"FailJob"> = (run, command, status) => {
  const token = tokenWaitingFor(run.state, "job", command.jobId)
  if (status === "SUSPENDED") return run.emit({ type: "CommandDeferred", command })
  const retries = Math.max(0, command.retries)
  // Variables a failing worker reports (what it learned) are kept for the next attempt.
  if (command.variables !== undefined && Object.keys(command.variables).length > 0) {
    run.propagate(token.scopeId, token.nodeId, command.variables)
  }
  run.emit({
    type: "JobFailed",
    tokenId: token.id,
    nodeId: token.nodeId,
    jobId: command.jobId,
    retries,
    errorMessage: command.errorMessage,
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
      message: command.errorMessage === ""
        ? `job ${command.jobId} failed and has no retries left`
        : command.errorMessage,
      jobId: command.jobId
    })
  }
}

export const updateJobRetries: CommandHandler<"UpdateJobRetries"> = (run, command) => {
  if (command.retries < 1) throw new Rejected("INVALID_ARGUMENT", "must be at least 1", "retries")
  const waiting = Object.values(run.state.tokens).find((t) => t.wait?.kind === "job" && t.wait.jobId === command.jobId)
  if (waiting !== undefined) {
    return run.emit({
      type: "JobRetriesUpdated",
      tokenId: waiting.id,
      nodeId: waiting.nodeId,
      jobId: command.jobId,
      retries: command.retries
    })
  }
  const incident = Object.values(run.state.incidents).find((i) => i.jobId === command.jobId)
  if (incident === undefined) throw new Rejected("NOT_FOUND", `job ${command.jobId} is not open in this instance`)
  // New retries for a dead-lettered job resolve its incident: the job can be activated again.
  run.emit({ type: "IncidentResolved", incidentId: incident.id, nodeId: incident.nodeId })
  return run.emit({
    type: "JobRetriesUpdated",
    tokenId: incident.tokenId,
    nodeId: incident.nodeId,
    jobId: command.jobId,
    retries: command.retries
  })
}

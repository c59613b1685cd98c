// Commands that arrive from outside, each to its handler: jobs, the answers to waits, decisions, called instances,
// variables, the lifecycle, token moves, incidents. A finished instance takes none.
import type { InstanceCommand } from "../InstanceCommands.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"
import { childErrorThrown, childEscalated, childInstanceCompleted, childInstanceFailed } from "./Children.ts"
import { decisionEvaluated, decisionFailed } from "./Decisions.ts"
import type { CommandHandler } from "./Handler.ts"
import { failJob, throwError, updateJobRetries } from "./Jobs.ts"
import { cancelInstance, migrateInstance, resumeInstance, startInstance, suspendInstance } from "./Lifecycle.ts"
import { assignUserTask, updateUserTask } from "./TaskAssignment.ts"
import { removeScopeVariable, setNodeVariables, setScopeVariable, setVariables } from "./Variables.ts"
import { answerWait } from "./Waits.ts"

const HANDLERS: { readonly [T in InstanceCommand["type"]]: CommandHandler<T> } = {
  StartInstance: startInstance,
  ThrowError: throwError,
  FailJob: failJob,
  UpdateJobRetries: updateJobRetries,
  ResolveIncident: (run, command, status) => {
    if (status !== "ACTIVE") {
      throw new Rejected(
        "INVALID_STATE",
        `process instance ${run.state.instanceId} is suspended: resume it before resolving incidents`
      )
    }
    return run.resolveIncident(command)
  },
  DecisionFailed: decisionFailed,
  DecisionEvaluated: decisionEvaluated,
  ChildInstanceFailed: childInstanceFailed,
  ChildErrorThrown: childErrorThrown,
  ChildEscalated: childEscalated,
  ChildInstanceCompleted: childInstanceCompleted,
  CompleteJob: answerWait,
  CompleteUserTask: answerWait,
  AssignUserTask: assignUserTask,
  UpdateUserTask: updateUserTask,
  CorrelateMessage: answerWait,
  TriggerSignal: answerWait,
  FireTimer: answerWait,
  SetVariables: setVariables,
  SetScopeVariable: setScopeVariable,
  RemoveScopeVariable: removeScopeVariable,
  SetNodeVariables: setNodeVariables,
  MoveToken: (run, command, status) => {
    if (status !== "ACTIVE") {
      throw new Rejected(
        "INVALID_STATE",
        `process instance ${run.state.instanceId} is suspended: resume it before moving a token`
      )
    }
    return run.moveToken(command)
  },
  MigrateInstance: migrateInstance,
  CancelInstance: cancelInstance,
  SuspendInstance: suspendInstance,
  ResumeInstance: resumeInstance
}

export function command(run: Run, command: InstanceCommand): void {
  const status = run.state.status
  if (status === "COMPLETED" || status === "CANCELED") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is ${status.toLowerCase()}`)
  }
  ;(HANDLERS[command.type] as CommandHandler<InstanceCommand["type"]>)(run, command, status)
}

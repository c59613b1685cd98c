// The instance's lifecycle: cancel, suspend, resume (held commands are applied then, in arrival order); a second start
// and a migration without the target's graph are refused.
import { Rejected } from "../Rejected.ts"
import type { CommandHandler } from "./Handler.ts"

export const startInstance: CommandHandler<"StartInstance"> = (run) => {
  throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} already started`)
}

export const migrateInstance: CommandHandler<"MigrateInstance"> = () => {
  throw new Rejected("INVALID_ARGUMENT", "a migration needs the target version's graph (use migrate)")
}

export const cancelInstance: CommandHandler<"CancelInstance"> = (run) => {
  run.terminateAll()
  return run.emit({ type: "InstanceCanceled" })
}

export const suspendInstance: CommandHandler<"SuspendInstance"> = (run, _command, status) => {
  if (status !== "ACTIVE") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is already suspended`)
  }
  return run.emit({ type: "InstanceSuspended" })
}

export const resumeInstance: CommandHandler<"ResumeInstance"> = (run, _command, status) => {
  if (status !== "SUSPENDED") {
    throw new Rejected("INVALID_STATE", `process instance ${run.state.instanceId} is not suspended`)
  }
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
}

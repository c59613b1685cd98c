// Sending a command to a process instance's entity, and what its rejections become for a client: NOT_FOUND a 404,
// INVALID_STATE and CONFLICT a 409, a faulty input a 400 naming the field, UNPROCESSABLE (the model cannot run the
// command within the run budget) a 422, INTERNAL a defect (500). A command
// interrupted in the entity (its shard released under it) is sent again with its id, and answered once it has an owner.
import { Effect } from "effect"
import type { Principal } from "../../auth/Principal.ts"
import type { InstanceClientShape } from "../../cluster/InstanceClient.ts"
import type { InstanceRejected, InstanceSnapshot as EntityReply } from "../../cluster/ProcessInstance.ts"
import type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import {
  type ClientError,
  conflict,
  NotFound,
  runBudgetExceeded,
  type ValidationError,
  validationError
} from "../../schema/ApiErrors.ts"
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { resendInterrupted, sendToEntity } from "../EntitySend.ts"

// The core names the faulty field of a rejected command as a value (InstanceRejected.field).
const rejectedInput = (rejected: InstanceRejected): ValidationError =>
  validationError(rejected.field ?? "command", rejected.message)

export const sendCommand = (client: InstanceClientShape) =>
(
  principal: Principal,
  id: ProcessInstanceId,
  commandId: string,
  command: InstanceCommand,
  deploymentId?: string,
  /** A start's id made just now: the entity need not look for its row. */
  freshId?: boolean
): Effect.Effect<EntityReply, ClientError> =>
  sendToEntity(resendInterrupted(
    client(id).Execute({
      commandId,
      tenantId: principal.tenantId,
      actor: principal.sub,
      command,
      ...(deploymentId === undefined ? {} : { deploymentId }),
      ...(freshId === true ? { freshId } : {})
    })
  )).pipe(
    Effect.catchTag("InstanceRejected", (rejected: InstanceRejected): Effect.Effect<EntityReply, ClientError> =>
      rejected.reason === "INTERNAL" ? Effect.die(new Error(rejected.message)) : Effect.fail(
        rejected.reason === "NOT_FOUND"
          ? new NotFound({
            message: rejected.message,
            errors: [{ field: "id", message: rejected.message, code: "NOT_FOUND" }]
          })
          : rejected.reason === "INVALID_STATE" || rejected.reason === "CONFLICT"
          ? conflict(rejected.message)
          : rejected.reason === "UNPROCESSABLE"
          ? runBudgetExceeded(rejected.message, rejected.field, rejected.code)
          : rejectedInput(rejected)
      ))
  )

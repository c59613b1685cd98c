// The ProcessInstance entity's protocol: one entity per instance id; the only writer of that instance's state. Every
// state-changing message carries a command id; a duplicate delivery returns the first reply and changes nothing.
import { Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { InstanceCommand } from "../engine/InstanceCommands.ts"

/** The instance as a start created it (the reply of that start only: a recorded reply does not carry it). */
export const StartedInstance = Schema.Struct({
  deploymentId: Schema.String,
  processKey: Schema.String,
  version: Schema.Int,
  incidentCount: Schema.Int,
  parentInstanceId: Schema.NullOr(Schema.String),
  rootInstanceId: Schema.String,
  variables: Schema.Record(Schema.String, Schema.Unknown),
  startedBy: Schema.String,
  startedAt: Schema.String,
  endedAt: Schema.NullOr(Schema.String)
})
export type StartedInstance = typeof StartedInstance.Type

export const InstanceSnapshot = Schema.Struct({
  id: Schema.String,
  tenantId: Schema.String,
  state: Schema.Literals(["ACTIVE", "SUSPENDED", "COMPLETED", "CANCELED"]),
  lastEventSeq: Schema.Int,
  /** When the command was committed (ISO 8601); absent in replies recorded by earlier versions. */
  committedAt: Schema.optional(Schema.String),
  started: Schema.optional(StartedInstance)
})
export type InstanceSnapshot = typeof InstanceSnapshot.Type

export class InstanceRejected extends Schema.TaggedError<InstanceRejected>()("InstanceRejected", {
  /** INTERNAL: the command met a defect; it was not applied, and it is not retried (the caller gets a 500). */
  /** UNPROCESSABLE: the command exceeded the run budget on this model (engine/RunBudget.ts); nothing was applied. */
  reason: Schema.Literals(["INVALID_STATE", "NOT_FOUND", "INVALID_ARGUMENT", "CONFLICT", "UNPROCESSABLE", "INTERNAL"]),
  message: Schema.String,
  /** The command's field at fault, when one is. */
  field: Schema.optional(Schema.String),
  /** UNPROCESSABLE: which budget (the API's error code; RUN_BUDGET_EXCEEDED when absent). */
  code: Schema.optional(Schema.String)
}) {}

export const Execute = Rpc.make("Execute", {
  payload: {
    commandId: Schema.String,
    tenantId: Schema.String,
    actor: Schema.String,
    /** For StartInstance: the deployment (version) to start. */
    deploymentId: Schema.optional(Schema.String),
    /**
     * For StartInstance: the id was made for this start just now (a new UUIDv7), so no row can hold it and the entity
     * does not look for one. (Were it there after all, the insert finds it and the start answers as a duplicate.)
     */
    freshId: Schema.optional(Schema.Boolean),
    /** For StartInstance of a called process: the calling instance and node, and the root of the call tree. */
    parent: Schema.optional(
      Schema.Struct({ instanceId: Schema.String, nodeId: Schema.String, rootInstanceId: Schema.String })
    ),
    command: InstanceCommand
  },
  success: InstanceSnapshot,
  error: InstanceRejected
})

export type InstanceCommandPayload = Rpc.Payload<typeof Execute>

export const ProcessInstance = Entity.make("ProcessInstance", [Execute])

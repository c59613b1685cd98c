// The messages the instance outbox carries, as one tagged Schema union: written by the projections in the commit that
// owes them, decoded by actors/OutboxRelay.ts before delivery (a row that does not decode is reported, not guessed at).
// Stored as kind = _tag and payload = the other fields.
import { Schema } from "effect"

const Variables = Schema.Record(Schema.String, Schema.Unknown)

export const OutboxMessage = Schema.Union([
  /**
   * Start a called instance (call activity): the latest version of the process, the latest with the version tag, or
   * (binding "deployment") the version deployed together with the calling instance's.
   */
  Schema.TaggedStruct("START_CHILD", {
    processKey: Schema.String,
    versionTag: Schema.optional(Schema.NullOr(Schema.String)),
    binding: Schema.optional(Schema.Literal("deployment")),
    parentNodeId: Schema.String,
    variables: Variables
  }),
  Schema.TaggedStruct("CANCEL_CHILD", {}),
  Schema.TaggedStruct("CHILD_COMPLETED", { variables: Variables }),
  Schema.TaggedStruct("CHILD_ERROR", { errorCode: Schema.String, errorMessage: Schema.String, variables: Variables }),
  Schema.TaggedStruct("CHILD_ESCALATION", { escalationCode: Schema.String }),
  /** A business rule task's decision, evaluated outside the instance and answered to it. */
  Schema.TaggedStruct("EVALUATE_DECISION", {
    evaluationId: Schema.String,
    decisionId: Schema.String,
    versionTag: Schema.optional(Schema.NullOr(Schema.String)),
    /** The decision deployed together with the instance's process version. */
    binding: Schema.optional(Schema.Literal("deployment")),
    variables: Variables
  }),
  /** A buffered message correlated when a subscription opened. */
  Schema.TaggedStruct("CORRELATE_MESSAGE", {
    messageKey: Schema.String,
    subscriptionId: Schema.String,
    variables: Variables
  }),
  /** A signal throw event's broadcast. */
  Schema.TaggedStruct("BROADCAST_SIGNAL", {
    broadcastId: Schema.String,
    signalName: Schema.String,
    variables: Variables
  })
])
export type OutboxMessage = typeof OutboxMessage.Type
export type OutboxKind = OutboxMessage["_tag"]

export const decodeOutboxMessage = Schema.decodeUnknownResult(OutboxMessage)

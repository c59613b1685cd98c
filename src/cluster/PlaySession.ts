// The PlaySession entity's protocol: one in-memory entity per session (nothing saved); the cluster removes it after
// 30 minutes without a message (its max idle time), and with it the session.
import { Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { PlaySessionView, PlayStepRequest } from "../schema/Play.ts"

export class PlayRejected extends Schema.TaggedError<PlayRejected>()("PlayRejected", {
  reason: Schema.Literals(["INVALID_STATE", "NOT_FOUND", "INVALID_ARGUMENT", "CONFLICT", "UNPROCESSABLE"]),
  message: Schema.String
}) {}

export const StartPlay = Rpc.make("Start", {
  payload: {
    tenantId: Schema.String,
    processKey: Schema.String,
    graph: Schema.Unknown,
    variables: Schema.Record(Schema.String, Schema.Unknown),
    mocks: Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown)),
    chooseFlows: Schema.Record(Schema.String, Schema.String)
  },
  success: PlaySessionView,
  error: PlayRejected
})

export const StepPlay = Rpc.make("Step", {
  payload: { tenantId: Schema.String, step: PlayStepRequest },
  success: PlaySessionView,
  error: PlayRejected
})

export const GetPlay = Rpc.make("Get", {
  payload: { tenantId: Schema.String },
  success: PlaySessionView,
  error: PlayRejected
})

export const PlaySession = Entity.make("PlaySession", [StartPlay, StepPlay, GetPlay])

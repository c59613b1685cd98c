// Broadcasting signals (POST /signals).
import { Schema } from "effect"
import { EventName } from "./Messages.ts"
import { RequestVariables } from "./RequestVariables.ts"

export const BroadcastSignal = Schema.Struct({
  signalName: EventName,
  variables: Schema.optional(RequestVariables)
}).annotate({ identifier: "BroadcastSignal" })

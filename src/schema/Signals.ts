// Broadcasting signals (POST /signals).
import { Schema } from "effect"
import { Variables } from "./Common.ts"

export const BroadcastSignal = Schema.Struct({
  signalName: Schema.String.check(Schema.isMinLength(1)),
  variables: Schema.optional(Variables)
}).annotate({ identifier: "BroadcastSignal" })

// Publishing messages (POST /messages).
import { Schema } from "effect"
import { Variables } from "./Common.ts"

export const PublishMessage = Schema.Struct({
  messageName: Schema.String.check(Schema.isMinLength(1)),
  correlationKey: Schema.optional(Schema.Union([Schema.String, Schema.Number])).annotate({
    description: "matched against the key each waiting subscription evaluated when it opened (default empty)"
  }),
  variables: Schema.optional(Variables)
}).annotate({ identifier: "PublishMessage" })

export const CorrelationResult = Schema.Struct({
  correlatedCount: Schema.Int.annotate({ description: "waiting instances the message resumed" }),
  startedCount: Schema.Int.annotate({ description: "instances started at message start events" }),
  instanceIds: Schema.Array(Schema.String).annotate({ description: "the resumed instances, then the started ones" })
}).annotate({ identifier: "CorrelationResult" })

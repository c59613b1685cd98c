// Publishing messages (POST /messages).
import { Schema } from "effect"
import { Variables } from "./Common.ts"

/** The longest a message is kept for an instance to take it: ten years (of 365 days). */
export const MAX_MESSAGE_TTL_MILLIS = 10 * 365 * 24 * 3_600_000

export const PublishMessage = Schema.Struct({
  messageName: Schema.String.check(Schema.isMinLength(1)),
  correlationKey: Schema.optional(Schema.Union([Schema.String, Schema.Number])).annotate({
    description: "matched against the key each waiting subscription evaluated when it opened (default empty)"
  }),
  variables: Schema.optional(Variables),
  timeToLive: Schema.optional(Schema.Union([
    Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_MESSAGE_TTL_MILLIS })),
    Schema.String
  ]))
    .annotate({
      description:
        "ms (or an ISO 8601 duration such as PT1H) to keep a message nothing awaits yet: the first instance that starts " +
        `waiting for it within that time takes it (default 0: not kept; at most ten years, ${MAX_MESSAGE_TTL_MILLIS} ms ` +
        "or P3650D)"
    }),
  messageId: Schema.optional(Schema.String.check(Schema.isMinLength(1))).annotate({
    description:
      "makes the publish idempotent: the same id again while the first is buffered or being correlated is 409"
  })
}).annotate({ identifier: "PublishMessage" })

export const CorrelationResult = Schema.Struct({
  correlatedCount: Schema.Int.annotate({ description: "waiting instances the message resumed" }),
  heldCount: Schema.Int.annotate({
    description:
      "waiting instances that are suspended: the message is held by each and applied when it is resumed (not counted in correlatedCount)"
  }),
  startedCount: Schema.Int.annotate({ description: "instances started at message start events" }),
  instanceIds: Schema.Array(Schema.String).annotate({
    description: "the resumed instances, then those holding the message, then the started ones"
  }),
  buffered: Schema.Boolean.annotate({
    description: "true when nothing awaited the message and it is kept for its time to live"
  })
}).annotate({ identifier: "CorrelationResult" })

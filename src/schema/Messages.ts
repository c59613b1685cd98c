// Publishing messages (POST /messages).
import { Schema } from "effect"
import { MAX_CORRELATION_KEY, MAX_EVENT_NAME } from "../engine/CorrelationKey.ts"
import { RequestVariables } from "./RequestVariables.ts"

/** The longest a message is kept for an instance to take it: ten years (of 365 days). */
export const MAX_MESSAGE_TTL_MILLIS = 10 * 365 * 24 * 3_600_000

/**
 * The longest messageId: it keys a row of idempotent_requests, whose index row PostgreSQL caps at 2,704 bytes (800
 * UTF-16 code units take at most 2,400 bytes as UTF-8).
 */
export const MAX_MESSAGE_ID = 800

/** A message's or a signal's name (see MAX_EVENT_NAME for why it is bounded). */
export const EventName = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(MAX_EVENT_NAME)).annotate({
  description: `1 to ${MAX_EVENT_NAME} characters`
})

export const PublishMessage = Schema.Struct({
  messageName: EventName,
  correlationKey: Schema.optional(Schema.Union([
    Schema.String.check(Schema.isMaxLength(MAX_CORRELATION_KEY)),
    Schema.Number
  ])).annotate({
    description: "matched against the key each waiting subscription evaluated when it opened (default empty); at " +
      `most ${MAX_CORRELATION_KEY} characters (a subscription whose key evaluates longer raises an incident)`
  }),
  variables: Schema.optional(RequestVariables),
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
  messageId: Schema.optional(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(MAX_MESSAGE_ID))).annotate({
    description: "makes the publish idempotent: the same id again while the first is buffered or being correlated is " +
      `409 (1 to ${MAX_MESSAGE_ID} characters)`
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

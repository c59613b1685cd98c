// A message subscription's correlation key, evaluated when the subscription opens, and what its row can hold.
// PostgreSQL refuses a btree index row over 2,704 bytes, and a subscription's name and key share one
// (event_subscriptions_message, buffered_messages_lookup). A UTF-16 code unit (what a string's length counts) takes
// at most 3 bytes in UTF-8, so 400 + 400 of them take at most 2,400 bytes, leaving room for the row's other columns.
import { evaluateFeel } from "../bpmn/Expressions.ts"
import type { MessageDefinition } from "../bpmn/ProcessGraph.ts"
import { MAX_MODEL_EVENT_NAME } from "../bpmn/StoredRanges.ts"

/** The longest name of a message or a signal a request may give (POST /messages, POST /signals): a model's bound. */
export const MAX_EVENT_NAME = MAX_MODEL_EVENT_NAME

/** The longest correlation key: given by POST /messages, or evaluated by a subscription (else an incident). */
export const MAX_CORRELATION_KEY = 400

export type CorrelationKeyOutcome = { readonly ok: true; readonly key: string } | {
  readonly ok: false
  readonly message: string
}

/**
 * The key a subscription to `message` keeps, evaluated against the variables; never throws. A failure's message
 * follows "correlation key of <element> ".
 */
export const correlationKeyOf = (
  message: MessageDefinition,
  variables: Readonly<Record<string, unknown>>
): CorrelationKeyOutcome => {
  const evaluated = evaluateFeel(message.correlationKey, variables)
  if (!evaluated.ok) return { ok: false, message: `failed: ${evaluated.message}` }
  const value = evaluated.value
  if (typeof value !== "string" && typeof value !== "number") {
    return { ok: false, message: `must be a string or a number, got ${value === null ? "null" : typeof value}` }
  }
  const key = String(value)
  return key.length > MAX_CORRELATION_KEY
    ? { ok: false, message: `is ${key.length} characters long, over the limit of ${MAX_CORRELATION_KEY}` }
    : { ok: true, key }
}

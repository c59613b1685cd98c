import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ConflictHttp } from "../../schema/ApiErrors.ts"
import { IdempotencyHeaders } from "../../schema/Common.ts"
import { Accepted } from "../../schema/Envelope.ts"
import { CorrelationResult, PublishMessage } from "../../schema/Messages.ts"
import { BroadcastSignal } from "../../schema/Signals.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"

// A message or a signal comes from the systems around the processes (their service accounts carry PROCESS_OWNER). It
// resumes waiting instances and starts new ones, so the answer is 202 with what it did; a retry with the same
// Idempotency-Key does nothing twice.
const delivery = <const Name extends string, Payload extends Schema.Top, Result extends Schema.Top>(
  name: Name,
  payload: Payload,
  result: Result,
  message: string,
  error: Array<typeof ConflictHttp | typeof BusinessErrorHttp>,
  summary: string
) =>
  HttpApiEndpoint.post(name, "/", { payload, headers: IdempotencyHeaders, success: Accepted(result, message), error })
    .annotateMerge(Requires.adminOrProcessOwner)
    .annotateMerge(OpenApi.annotations({ summary }))

export class MessagesApi extends HttpApiGroup.make("messages")
  .add(
    delivery(
      "publish",
      PublishMessage,
      CorrelationResult,
      "Message published",
      [ConflictHttp, BusinessErrorHttp],
      "Publish a message: resumes every waiting instance whose subscription matches name and correlation key, and " +
        "starts an instance of every process whose message start event has that name; matching nothing is 202 with zero counts"
    )
  )
  .pipe(authenticatedGroup("/api/v1/messages", "Messages"))
{}

const SignalResult = Schema.Struct({
  correlatedCount: Schema.Int.annotate({ description: "waiting instances the signal resumed" }),
  startedCount: Schema.Int.annotate({ description: "instances started at signal start events" }),
  instanceIds: Schema.Array(Schema.String)
}).annotate({ identifier: "SignalResult" })

export class SignalsApi extends HttpApiGroup.make("signals")
  .add(
    delivery(
      "broadcast",
      BroadcastSignal,
      SignalResult,
      "Signal broadcast",
      [BusinessErrorHttp],
      "Broadcast a signal: resumes every instance waiting for it and starts an instance of every process whose signal " +
        "start event listens; matching nothing is 202 with zero counts"
    )
  )
  .pipe(authenticatedGroup("/api/v1/signals", "Signals"))
{}

export const EvaluateConditionalStarts = Schema.Struct({
  variables: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  processKey: Schema.optional(Schema.String).annotate({ description: "only this process (default: every process)" })
}).annotate({ identifier: "EvaluateConditionalStarts" })

export class ConditionalStartsApi extends HttpApiGroup.make("conditionalStarts")
  .add(
    HttpApiEndpoint.post("evaluate", "/evaluate", {
      payload: EvaluateConditionalStarts,
      success: Accepted(SignalResult, "Conditions evaluated")
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Start an instance of every latest, active process whose conditional start event's condition holds for the variables"
    }))
  )
  .pipe(authenticatedGroup("/api/v1/conditional-start-events", "Conditional start events"))
{}

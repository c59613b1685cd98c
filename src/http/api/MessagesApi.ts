import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ConflictHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"
import { CorrelationResult, PublishMessage } from "../../schema/Messages.ts"
import { Authentication } from "../Middleware.ts"

export class MessagesApi extends HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.post("publish", "/", {
      payload: PublishMessage,
      success: Ok(CorrelationResult, "Message published").pipe(HttpApiSchema.status(202)),
      error: ConflictHttp
    }).annotateMerge(OpenApi.annotations({
      summary: "Publish a message: resumes every waiting instance whose subscription matches name and correlation key, and " +
        "starts an instance of every process whose message start event has that name; matching nothing is 202 with zero counts"
    }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/messages")
  .annotateMerge(OpenApi.annotations({ title: "Messages" }))
{}

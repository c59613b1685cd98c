import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiErrorFields, asFailureEnvelope } from "../../schema/Envelope.ts"
import { Ok } from "../../schema/Envelope.ts"
import { Health } from "../../schema/Health.ts"
import { Requires } from "../Access.ts"

/** The health check answers 503 in the failure envelope when the database does not answer. */
export class ServiceUnavailable
  extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", ApiErrorFields)
{}
export const ServiceUnavailableHttp = asFailureEnvelope(
  ServiceUnavailable,
  "INTERNAL_ERROR",
  503,
  (f) => new ServiceUnavailable(f)
)

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/health", {
      success: Ok(Health, "Service is up"),
      error: ServiceUnavailableHttp
    }).annotateMerge(Requires.noToken).annotateMerge(
      OpenApi.annotations({ summary: "Health of the service, its database and its cluster runtime" })
    )
  )
  .prefix("/api/v1")
  .annotateMerge(OpenApi.annotations({ title: "System" }))
{}

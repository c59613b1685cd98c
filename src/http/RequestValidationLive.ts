// Request decoding failures become 400s in the failure envelope: malformed JSON is BAD_REQUEST; any schema mismatch
// is VALIDATION_ERROR listing every faulty field (the Api is annotated with errors: "all"). A path id that is no UUID
// names nothing: 404 RESOURCE_NOT_FOUND naming its kind (ResourceIds.ts), as for an unknown id. Failures to encode a
// response are bugs: they stay defects (500).
import { Effect, Schema, SchemaIssue } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, notFound, NotFoundHttp, ValidationError } from "../schema/ApiErrors.ts"
import type { ErrorDetail } from "../schema/Envelope.ts"
import { refusedPathIds } from "../schema/ResourceIds.ts"
import { RequestValidation } from "./Middleware.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const pathSegment = (segment: PropertyKey | { readonly key: PropertyKey } | undefined): PropertyKey | undefined =>
  typeof segment === "object" && segment !== null ? segment.key : segment

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string =>
  (path ?? [])
    .map(pathSegment)
    .reduce<string>(
      (
        text,
        key
      ) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`),
      ""
    )

const encodeNotFound = Schema.encodeEffect(NotFoundHttp)

/**
 * The 404 of the first refused path id. Every endpoint with a path id declares NotFoundHttp itself, so the answer is
 * written here with that schema rather than declared again on this API-wide middleware (which would document a 404
 * for every operation).
 */
const pathIdNotFound = Effect.fnUntraced(function*(param: string, kind: string) {
  const route = yield* HttpRouter.RouteContext
  const id = route.params[param] ?? ""
  const body = yield* Effect.orDie(encodeNotFound(notFound(kind, id)))
  return HttpServerResponse.jsonUnsafe(body, { status: 404 })
})

const SOURCE: Record<string, string> = { Payload: "body", Query: "query", Params: "path", Headers: "header" }

export const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) => {
  if (error.kind === "Body" || error.kind === "ResponseHeaders") return Effect.die(error)
  const issues = formatter(error.cause.issue).issues
  if (error.kind === "Payload" && issues.length === 1 && issues[0]!.message === "Expected a valid JSON body") {
    return Effect.fail(
      new BadRequest({
        message: "malformed JSON in the request body",
        errors: [{ field: "body", message: "not valid JSON", code: "MALFORMED_JSON" }]
      })
    )
  }
  const refusedIds = error.kind === "Params" ? refusedPathIds(error.cause.issue) : []
  const refusedParams = new Set(refusedIds.map((refused) => refused.param))
  // Another faulty path parameter (a non-numeric eventSeq) answers its 400 first, as when the services checked ids.
  const otherIssues = issues.filter((issue) => !refusedParams.has(String(pathSegment(issue.path?.[0]))))
  if (refusedIds.length > 0 && otherIssues.length === 0) {
    return pathIdNotFound(refusedIds[0]!.param, refusedIds[0]!.kind)
  }
  const source = SOURCE[error.kind] ?? error.kind.toLowerCase()
  const errors: Array<ErrorDetail> = otherIssues.map((issue) => {
    const field = pathText(issue.path as ReadonlyArray<PropertyKey>) || source
    const missing = issue.message === "Missing key"
    return { field, message: missing ? "is required" : issue.message, code: missing ? "REQUIRED" : "INVALID" }
  })
  const summary = errors.map((e) => `${e.field} ${e.message}`).join("; ")
  return Effect.fail(new ValidationError({ message: `invalid request ${source}: ${summary}`, errors }))
})

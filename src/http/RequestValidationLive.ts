// Request decoding failures become 400s in the failure envelope: malformed JSON is BAD_REQUEST; any schema mismatch
// is VALIDATION_ERROR listing every faulty field (the Api is annotated with errors: "all"). Failures to encode a
// response are bugs: they stay defects (500).
import { Effect, SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, ValidationError } from "../schema/ApiErrors.ts"
import type { ErrorDetail } from "../schema/Envelope.ts"
import { RequestValidation } from "./Middleware.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string =>
  (path ?? [])
    .map((segment) => (typeof segment === "object" && segment !== null ? segment.key : segment))
    .reduce<string>(
      (
        text,
        key
      ) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`),
      ""
    )

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
  const source = SOURCE[error.kind] ?? error.kind.toLowerCase()
  const errors: Array<ErrorDetail> = issues.map((issue) => {
    const field = pathText(issue.path as ReadonlyArray<PropertyKey>) || source
    const missing = issue.message === "Missing key"
    return { field, message: missing ? "is required" : issue.message, code: missing ? "REQUIRED" : "INVALID" }
  })
  const summary = errors.map((e) => `${e.field} ${e.message}`).join("; ")
  return Effect.fail(new ValidationError({ message: `invalid request ${source}: ${summary}`, errors }))
})

// Text no handler should ever see, refused at the edge with a 400 naming the field: a body that is not valid UTF-8,
// JSON nested deeper than the limit, strings or keys PostgreSQL cannot store (NUL, lone surrogates) in the body,
// the query or the path. Checked once here, so every route is covered and no entity is ever handed such a value.
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { JSON_MAX_DEPTH, jsonTextTooDeep, jsonValueProblem, unstorableString } from "../persistence/StorableJson.ts"
import type { ErrorDetail } from "../schema/Envelope.ts"

export interface RequestTextProblem {
  readonly errorCode: "BAD_REQUEST" | "VALIDATION_ERROR"
  readonly message: string
  readonly errors: ReadonlyArray<ErrorDetail>
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])
const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

const problem = (
  errorCode: RequestTextProblem["errorCode"],
  field: string,
  message: string,
  code: string
): RequestTextProblem => ({
  errorCode,
  message: `${field} ${message}`,
  errors: [{ field, message, code }]
})

const decodeComponent = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "))
  } catch {
    return undefined
  }
}

/**
 * A URL with no percent-encoding and no control characters decodes to itself (but `+`), so it can hold neither NUL
 * nor a surrogate: most requests' URLs, checked with one regex test. (Raw control or non-ASCII bytes never get here:
 * Node's HTTP parser answers them 400 itself.)
 */
const PLAIN_URL = /^[^%\x00-\x20\x7f]*$/

/** The path segments and query parameters: percent-encoding that is not UTF-8, NUL, lone surrogates. */
const urlProblem = (url: string): RequestTextProblem | undefined => {
  if (PLAIN_URL.test(url)) return undefined
  const at = url.indexOf("?")
  const path = at < 0 ? url : url.slice(0, at)
  for (const segment of path.split("/")) {
    const decoded = decodeComponent(segment)
    if (decoded === undefined) {
      return problem("BAD_REQUEST", "path", "is not valid percent-encoded UTF-8", "INVALID_ENCODING")
    }
    const why = unstorableString(decoded)
    if (why !== undefined) return problem("VALIDATION_ERROR", "path", why, "INVALID_TEXT")
  }
  if (at < 0) return undefined
  for (const pair of url.slice(at + 1).split("&")) {
    if (pair === "") continue
    const eq = pair.indexOf("=")
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq))
    const value = eq < 0 ? "" : decodeComponent(pair.slice(eq + 1))
    const field = `query.${name ?? "?"}`
    if (name === undefined || value === undefined) {
      return problem("BAD_REQUEST", field, "is not valid percent-encoded UTF-8", "INVALID_ENCODING")
    }
    const why = unstorableString(name) ?? unstorableString(value)
    if (why !== undefined) return problem("VALIDATION_ERROR", field, why, "INVALID_TEXT")
  }
  return undefined
}

const bodyProblem = (bytes: ArrayBuffer, isJson: boolean): RequestTextProblem | undefined => {
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return problem("BAD_REQUEST", "body", "is not valid UTF-8", "INVALID_ENCODING")
  }
  if (!isJson || text === "") return undefined
  if (jsonTextTooDeep(text, JSON_MAX_DEPTH)) {
    return problem("BAD_REQUEST", "body", `nests arrays and objects deeper than ${JSON_MAX_DEPTH} levels`, "TOO_DEEP")
  }
  // Strict UTF-8 cannot carry a surrogate, and JSON text cannot carry a raw NUL in a string: without a \u escape
  // the parsed value has nothing unstorable, and the parse is left to the route.
  if (!text.includes("\\u")) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined // the route's own decoding answers malformed JSON
  }
  const found = jsonValueProblem(parsed)
  return found === undefined ? undefined : problem("VALIDATION_ERROR", found.field, found.message, found.code)
}

/** Reads the body (cached by the request: the route reads it again for free) and checks all of the request's text. */
export const requestTextProblem = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<RequestTextProblem | undefined, unknown> => {
  const inUrl = urlProblem(request.url)
  if (inUrl !== undefined) return Effect.succeed(inUrl)
  if (!BODY_METHODS.has(request.method)) return Effect.succeed(undefined)
  const contentType = (request.headers["content-type"] ?? "").toLowerCase()
  const isJson = contentType.includes("json")
  if (!isJson && !contentType.includes("xml") && !contentType.startsWith("text/")) return Effect.succeed(undefined)
  return Effect.map(request.arrayBuffer, (bytes) => bodyProblem(bytes, isJson))
}

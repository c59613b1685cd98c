// The outermost middleware, around every request (routes of the API, the OpenAPI document, the explorer):
//  * X-Correlation-Id: the request's value echoed, else a generated one; also the failure body's correlationId and
//    part of the request's access line;
//  * the request body limit (MAX_BODY_BYTES);
//  * everything the API's own schemas do not answer becomes a failure envelope: unknown routes (404), wrong methods
//    (405), unsupported media types (415), oversized bodies (413), a node without room for another instance in memory
//    (503 with Retry-After), work interrupted under the request (500 saying it may have taken effect) and defects
//    (500 INTERNAL_ERROR, logged with the correlation id; no stack or internals in the body); an HTML page (GET /ui's
//    "not built") stays a page;
//  * one audit record per state-changing call under /api/v1 (RequestAudit: written here, or by the request's first
//    instance commit, so no handler can forget it);
//  * an access line per failed request (status 400 and up), or per request with ACCESS_LOG=all, none with off;
//  * request text no handler should see (invalid UTF-8, JSON nested too deep, NUL, lone surrogates) -> 400;
//  * a body in a content coding (Content-Encoding: gzip ...) -> 415, as it is never decoded;
//  * while the node drains for a graceful stop, new requests -> 503 (see NodeLifecycle).
import { Cause, Clock, Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type * as Types from "effect/Types"
import { randomUUID } from "node:crypto"
import { newRequestState, RequestState } from "../auth/RequestState.ts"
import { type AccessLog, AppConfig } from "../config.ts"
import { recordRequest } from "../observability/Metrics.ts"
import { CommitAudit } from "../persistence/instances/CommitAudit.ts"
import type { ErrorDetail } from "../schema/Envelope.ts"
import { isEntitiesFull } from "../services/EntitySend.ts"
import { AuditLog } from "../services/identity/AuditLog.ts"
import { unsupportedContentEncoding } from "./ContentEncodingCheck.ts"
import { NodeLifecycle } from "./NodeLifecycle.ts"
import { makeRequestAudit } from "./RequestAudit.ts"
import { requestTextProblem } from "./RequestTextCheck.ts"
import { allowedMethods } from "./RouteTable.ts"

const failure = (
  status: number,
  errorCode: string,
  message: string,
  correlationId: string,
  timestamp: string,
  errors: ReadonlyArray<ErrorDetail> = []
) =>
  HttpServerResponse.jsonUnsafe(
    { success: false, errorCode, message, timestamp, errors, correlationId },
    { status }
  )

const HEALTH_PATH = "/api/v1/health"

const errorCodeFor = (status: number): string =>
  status === 401 ? "UNAUTHORIZED" : status === 403 ? "FORBIDDEN" : status === 404 ?
    "RESOURCE_NOT_FOUND"
    : status === 409
    ? "CONFLICT"
    : status === 422
    ? "BUSINESS_ERROR"
    : status >= 500
    ? "INTERNAL_ERROR"
    : "BAD_REQUEST"

const isBodyTooLarge = (error: unknown): boolean => {
  const reason = (error as { readonly reason?: { readonly _tag?: string; readonly reason?: string } } | undefined)
    ?.reason
  return reason?._tag === "RequestParseError" && reason.reason === "BodyTooLarge"
}

const isRouteNotFound = (error: unknown): boolean => {
  const tagged = error as { readonly _tag?: string; readonly reason?: { readonly _tag?: string } } | undefined
  return tagged?._tag === "RouteNotFound" ||
    (tagged?._tag === "HttpServerError" && tagged.reason?._tag === "RouteNotFound")
}

/** Where the API did not answer with its own envelope, answer with one. */
const fallbackResponse = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  correlationId: string,
  timestamp: string,
  maxBodyBytes: number
): HttpServerResponse.HttpServerResponse => {
  const path = request.url.split("?")[0] ?? request.url
  if (status === 404) {
    const allowed = allowedMethods(path)
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return HttpServerResponse.setHeader(
        failure(
          405,
          "BAD_REQUEST",
          `method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`,
          correlationId,
          timestamp
        ),
        "allow",
        allowed.join(", ")
      )
    }
    return failure(404, "RESOURCE_NOT_FOUND", `no route ${request.method} ${path}`, correlationId, timestamp)
  }
  if (status === 413) {
    return failure(
      413,
      "BAD_REQUEST",
      `request body exceeds the limit of ${maxBodyBytes} bytes`,
      correlationId,
      timestamp
    )
  }
  if (status === 415) {
    return failure(
      415,
      "BAD_REQUEST",
      `unsupported content type ${request.headers["content-type"] ?? "(none)"}`,
      correlationId,
      timestamp
    )
  }
  if (status >= 500) {
    return failure(
      status,
      "INTERNAL_ERROR",
      "internal error; quote the correlation id when reporting it",
      correlationId,
      timestamp
    )
  }
  return failure(status, errorCodeFor(status), `request failed with status ${status}`, correlationId, timestamp)
}

/**
 * Whether a request gets its access line (ACCESS_LOG). By default only failures do: the client quotes their correlation
 * id, and a line for every request cost 8–12 % of a correlating publish's service CPU (docs/scaling.md, session 23).
 */
const logsAccess = (accessLog: AccessLog, status: number): boolean =>
  accessLog === "all" || (accessLog === "failures" && status >= 400)

export const EdgeMiddleware = HttpRouter.middleware(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const audit = yield* AuditLog
    const lifecycle = yield* NodeLifecycle
    const accessLine = (method: string, path: string, status: number, annotations: Record<string, unknown>) =>
      logsAccess(config.accessLog, status)
        ? Effect.logInfo(`${method} ${path} ${status}`).pipe(Effect.annotateLogs(annotations))
        : Effect.void

    const handle = Effect.fnUntraced(function*(
      httpEffect: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        Types.unhandled,
        HttpServerRequest.HttpServerRequest
      >
    ) {
      const request = yield* HttpServerRequest.HttpServerRequest
      const incoming = request.headers["x-correlation-id"]
      const correlationId = incoming !== undefined && incoming !== "" ? incoming : randomUUID()
      const state = newRequestState(correlationId)
      const startedAt = yield* Clock.currentTimeMillis
      const timestamp = new Date(startedAt).toISOString()
      const path = request.url.split("?")[0] ?? request.url
      yield* Effect.annotateCurrentSpan("flowcore.correlation_id", correlationId)

      if (lifecycle.draining && path !== HEALTH_PATH) {
        return HttpServerResponse.setHeaders(
          failure(
            503,
            "INTERNAL_ERROR",
            "the node is shutting down; retry on another node",
            correlationId,
            timestamp
          ),
          { connection: "close", "retry-after": "1", "x-correlation-id": correlationId }
        )
      }
      const encoding = unsupportedContentEncoding(request.method, request.headers["content-encoding"])
      if (encoding !== undefined) {
        const message = `content encoding ${encoding} is not supported: send the body as it is (identity)`
        yield* accessLine(request.method, path, 415, { correlationId })
        return HttpServerResponse.setHeaders(
          failure(415, "BAD_REQUEST", message, correlationId, timestamp, [
            { field: "content-encoding", message, code: "UNSUPPORTED_ENCODING" }
          ]),
          { "accept-encoding": "identity", "x-correlation-id": correlationId }
        )
      }
      const textProblem = yield* Effect.result(requestTextProblem(request))
      const refused = textProblem._tag === "Failure"
        ? fallbackResponse(
          request,
          isBodyTooLarge(textProblem.failure) ? 413 : 400,
          correlationId,
          timestamp,
          config.maxBodyBytes
        )
        : textProblem.success === undefined
        ? undefined
        : failure(
          400,
          textProblem.success.errorCode,
          textProblem.success.message,
          correlationId,
          timestamp,
          textProblem.success.errors
        )
      if (refused !== undefined) {
        const response = refused
        yield* accessLine(request.method, path, response.status, { correlationId })
        return HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
      }

      const requestAudit = makeRequestAudit(audit, request.method, path, state)
      let response = yield* httpEffect.pipe(
        Effect.provideService(RequestState, state),
        Effect.provideService(CommitAudit, requestAudit),
        Effect.catchCause((cause) => {
          const error = Cause.squash(cause)
          if (isRouteNotFound(error)) {
            return Effect.succeed(fallbackResponse(request, 404, correlationId, timestamp, config.maxBodyBytes))
          }
          if (isBodyTooLarge(error)) {
            return Effect.succeed(fallbackResponse(request, 413, correlationId, timestamp, config.maxBodyBytes))
          }
          // The node holds as many entities as it may, and none left memory in time: busy, not broken.
          if (isEntitiesFull(error)) {
            return Effect.logWarning("no room for another resident entity (MAX_RESIDENT_ENTITIES): 503").pipe(
              Effect.annotateLogs({ correlationId, method: request.method, path }),
              Effect.as(HttpServerResponse.setHeader(
                failure(
                  503,
                  "INTERNAL_ERROR",
                  "the node is at its limit of instances in memory; retry in a moment",
                  correlationId,
                  timestamp
                ),
                "retry-after",
                "1"
              ))
            )
          }
          // Interrupted without a failure, and not by the client: the node gave the instance's shard up under the
          // command (its lock could not be renewed in time: the database or the node stalled) or is stopping. Not a
          // bug, but the outcome is unknown — the command may have committed all the same (its commit runs detached)
          // — so a 500 that says so, not a 503: a 503 promises nothing was done, and the load balancer resends it
          // (deploy/haproxy.cfg), which could start an instance twice. The client looks, or resends it with the
          // same Idempotency-Key.
          if (Cause.hasInterruptsOnly(cause)) {
            return Effect.logWarning("request interrupted on this node (shard moved or node stopping)").pipe(
              Effect.annotateLogs({ correlationId, method: request.method, path }),
              Effect.as(failure(
                500,
                "INTERNAL_ERROR",
                "the request was interrupted on this node (its instance moved to another node, or the node is " +
                  "stopping): it may or may not have taken effect; look before sending it again, or send it again " +
                  "with the same Idempotency-Key",
                correlationId,
                timestamp
              ))
            )
          }
          return Effect.logError("request failed with a defect", Cause.pretty(cause)).pipe(
            Effect.annotateLogs({ correlationId, method: request.method, path }),
            Effect.as(fallbackResponse(request, 500, correlationId, timestamp, config.maxBodyBytes))
          )
        })
      )
      const contentType = response.headers["content-type"] ?? ""
      // A page meant for a person (GET /ui without its bundle) stays a page.
      if (response.status >= 400 && !contentType.includes("json") && !contentType.includes("text/html")) {
        response = fallbackResponse(request, response.status, correlationId, timestamp, config.maxBodyBytes)
      }
      response = HttpServerResponse.setHeader(response, "x-correlation-id", correlationId)
      yield* requestAudit.finish(response.status).pipe(
        Effect.catchCause((cause) => Effect.logError("audit record failed", Cause.pretty(cause)))
      )
      const durationMs = (yield* Clock.currentTimeMillis) - startedAt
      yield* recordRequest(request.method, path, response.status, durationMs / 1000)
      yield* accessLine(request.method, path, response.status, {
        correlationId,
        durationMs,
        tenant: state.principal?.tenantId ?? state.tenantId ?? "-"
      })
      if (lifecycle.draining) response = HttpServerResponse.setHeader(response, "connection", "close")
      return response
    })
    return (
      httpEffect
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      // counted in flight from here to the response (a graceful stop waits for them)
      Effect.suspend(() => {
        lifecycle.enter()
        return Effect.ensuring(handle(httpEffect), Effect.sync(() => lifecycle.leave()))
      })
  }),
  { global: true }
)

// GET /metrics: every metric in Prometheus' text format, outside the /api/v1 business routes. A scraper presents
// METRICS_TOKEN as its bearer token (when set); a person may use an ADMIN's token instead. Anyone else gets 401/403.
import { Effect, Metric } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { ClusterInfo } from "../cluster/Cluster.ts"
import { ResidentInstances } from "../cluster/ResidentInstances.ts"
import { AppConfig } from "../config.ts"
import { activeEntities, recordProcess, requestsInFlight, residentInstances } from "../observability/Metrics.ts"
import { TokenService } from "../services/identity/TokenService.ts"
import { NodeLifecycle } from "./NodeLifecycle.ts"

const refused = (status: 401 | 403, message: string) =>
  HttpServerResponse.jsonUnsafe({
    success: false,
    errorCode: status === 401 ? "UNAUTHORIZED" : "FORBIDDEN",
    message,
    timestamp: new Date().toISOString(),
    errors: [{ field: "Authorization", message, code: status === 401 ? "UNAUTHORIZED" : "FORBIDDEN" }],
    correlationId: ""
  }, { status })

export const MetricsRoute = HttpRouter.use(Effect.fnUntraced(function*(router) {
  const config = yield* AppConfig
  const tokens = yield* TokenService
  const lifecycle = yield* NodeLifecycle
  const cluster = yield* ClusterInfo
  const residents = yield* ResidentInstances
  yield* router.add(
    "GET",
    "/metrics",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const bearer = /^Bearer\s+(.+)$/i.exec(request.headers["authorization"] ?? "")?.[1]?.trim()
      if (bearer === undefined) return refused(401, "metrics need a bearer token: METRICS_TOKEN, or an ADMIN's token")
      if (config.metricsToken === undefined || bearer !== config.metricsToken) {
        const principal = yield* Effect.result(tokens.verify(bearer))
        if (principal._tag === "Failure") return refused(401, `invalid token: ${principal.failure.message}`)
        if (!principal.success.roles.includes("ADMIN")) {
          return refused(403, "metrics need METRICS_TOKEN or the ADMIN role")
        }
      }
      yield* Metric.update(requestsInFlight, lifecycle.inFlight)
      yield* Metric.update(activeEntities, yield* cluster.activeEntities)
      yield* Metric.update(residentInstances, residents.count())
      yield* recordProcess
      return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType: "text/plain; version=0.0.4" })
    })
  )
}))

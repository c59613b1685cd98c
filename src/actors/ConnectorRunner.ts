// The connector runtime: a built-in job worker for the connector types of the catalog. It activates their jobs in
// every tenant, does the work with the task's connection (an HTTP call for the REST connector) and completes the job
// with the result — or fails it (one retry used; none left: an incident) with the reason. Woken when such jobs are
// created, polling twice a second otherwise.
import { Context, Duration, Effect, Layer, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { inTenant } from "../auth/CurrentTenant.ts"
import type { Principal } from "../auth/Principal.ts"
import { runClusterLoop } from "../cluster/ClusterLoop.ts"
import { JobId } from "../schema/ResourceIds.ts"
import type { Job } from "../schema/Work.ts"
import { Connections, type ResolvedConnection } from "../services/connectors/Connections.ts"
import { configurationProblems, CONNECTOR_TYPES, HTTP_JSON } from "../services/connectors/ConnectorCatalog.ts"
import { Work } from "../services/work/Work.ts"
import { callCamundaHttp, CAMUNDA_HTTP_JSON, type CamundaOutcome } from "./CamundaHttpConnector.ts"

const WORKER = "flowcore-connectors"

export interface ConnectorRunnerShape {
  /** Works off the connector jobs available now (tests). */
  readonly runOnce: Effect.Effect<number>
}

type Outcome = { readonly ok: true; readonly variables: Record<string, unknown> } | {
  readonly ok: false
  readonly message: string
  readonly final: boolean
}

/** The REST connector: method and path from the task headers, the body from the job's `body` variable. */
const callHttp = (connection: ResolvedConnection, job: Job): Effect.Effect<Outcome> =>
  Effect.tryPromise(async (): Promise<Outcome> => {
    const config = connection.config
    const method = (job.customHeaders["method"] ?? "GET").toUpperCase()
    const url = `${String(config["baseUrl"]).replace(/\/$/, "")}${job.customHeaders["path"] ?? ""}`
    const headers: Record<string, string> = { accept: "application/json" }
    if (config["authType"] === "bearer") headers["authorization"] = `Bearer ${String(config["token"])}`
    if (config["authType"] === "basic") {
      headers["authorization"] = `Basic ${
        Buffer.from(`${String(config["username"])}:${String(config["password"])}`).toString("base64")
      }`
    }
    const withBody = method !== "GET" && method !== "DELETE" && job.variables["body"] !== undefined
    if (withBody) headers["content-type"] = "application/json"
    const response = await fetch(url, {
      method,
      headers,
      ...(withBody ? { body: JSON.stringify(job.variables["body"]) } : {}),
      signal: AbortSignal.timeout(typeof config["timeoutMs"] === "number" ? config["timeoutMs"] : 10_000)
    })
    const text = await response.text()
    let body: unknown = text
    try {
      body = text === "" ? null : JSON.parse(text)
    } catch {
      // not JSON: kept as text
    }
    if (!response.ok) {
      return {
        ok: false,
        message: `${method} ${url} answered ${response.status}`,
        final: response.status >= 400 && response.status < 500 && response.status !== 429
      }
    }
    const result = { status: response.status, body, headers: Object.fromEntries(response.headers.entries()) }
    return { ok: true, variables: { [job.customHeaders["resultVariable"] ?? "response"]: result } }
  }).pipe(
    Effect.catch((error) =>
      Effect.succeed<Outcome>({
        ok: false,
        message: `request failed: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`,
        final: false
      })
    ),
    Effect.withSpan("flowcore.connector.call", {
      attributes: { "flowcore.job.id": job.id, "flowcore.connection": connection.id }
    })
  )

export class ConnectorRunner
  extends Context.Service<ConnectorRunner, ConnectorRunnerShape>()("flowcore/ConnectorRunner")
{
  static readonly layer = Layer.effect(
    ConnectorRunner,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const work = yield* Work
      const connections = yield* Connections

      const perform = (tenantId: string, job: Job): Effect.Effect<Outcome | CamundaOutcome> =>
        Effect.gen(function*() {
          // Camunda's REST connector template carries everything in the task: no connection.
          if (job.type === CAMUNDA_HTTP_JSON) return yield* callCamundaHttp(job)
          const reference = job.customHeaders["connection"]
          if (reference === undefined || reference === "") {
            return {
              ok: false,
              message: "the connector task names no connection (task header connection)",
              final: true
            }
          }
          const connection = yield* connections.resolve(tenantId, reference)
          if (connection === undefined) return { ok: false, message: `connection ${reference} not found`, final: true }
          if (!connection.enabled) return { ok: false, message: `connection ${reference} is disabled`, final: true }
          if (connection.connectorType !== job.type) {
            return {
              ok: false,
              message: `connection ${reference} is of type ${connection.connectorType}, not ${job.type}`,
              final: true
            }
          }
          const problems = configurationProblems(connection.connectorType, connection.config)
          if (problems.length > 0) {
            return {
              ok: false,
              message: `connection ${reference} is incomplete: ${
                problems.map((p) => `${p.field} ${p.message}`).join(", ")
              }`,
              final: true
            }
          }
          return connection.connectorType === HTTP_JSON
            ? yield* callHttp(connection, job)
            : { ok: false, message: `no runtime for ${job.type}`, final: true }
        })

      const runOnce = Effect.gen(function*() {
        const types = [...CONNECTOR_TYPES.map((t) => t.type), CAMUNDA_HTTP_JSON]
        const tenants = yield* sql<{ tenant_id: string; type: string }>`SELECT DISTINCT tenant_id, type FROM jobs
          WHERE ${sql.in("type", types)} AND state IN ('ACTIVATABLE', 'ACTIVATED')`.pipe(Effect.orDie)
        let done = 0
        for (const { tenant_id: tenantId, type } of tenants) {
          const principal: Principal = { sub: `system:${WORKER}`, tenantId, roles: [], source: "local" }
          const jobs = yield* work.activateJobs({
            type,
            worker: WORKER,
            maxJobsToActivate: 16,
            timeout: 60_000
          }).pipe(inTenant(tenantId))
          yield* Effect.forEach(jobs, (job) =>
            Effect.flatMap(perform(tenantId, job), (outcome) =>
              outcome.ok
                ? work.completeJob(principal, JobId.make(job.id), outcome.variables)
                : "bpmnError" in outcome
                ? work.throwError(principal, JobId.make(job.id), {
                  errorCode: outcome.bpmnError.code,
                  errorMessage: outcome.bpmnError.message
                })
                : work.failJob(principal, JobId.make(job.id), {
                  retries: outcome.final ? 0 : Math.max(0, job.retries - 1),
                  errorMessage: outcome.message,
                  retryBackOff: outcome.final ? 0 : 5_000
                })).pipe(
                Effect.catchCause((cause) => Effect.logWarning(`connector job ${job.id} not finished`, cause))
              ), { concurrency: 8, discard: true })
          done += jobs.length
        }
        return done
      })

      const semaphore = yield* Semaphore.make(1)
      const guarded = semaphore.withPermits(1)(runOnce).pipe(
        Effect.catchCause((cause) => Effect.as(Effect.logWarning("connector runtime pass failed", cause), 0))
      )
      yield* runClusterLoop("connector-runner", Duration.millis(500), guarded)
      return { runOnce: guarded }
    })
  )
}

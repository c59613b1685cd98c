import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { ClusterInfo } from "../../cluster/Cluster.ts"
import { DatabaseInfo } from "../../persistence/database/Database.ts"
import { Api } from "../Api.ts"
import { ServiceUnavailable } from "../api/SystemApi.ts"
import { NodeLifecycle } from "../NodeLifecycle.ts"

const VERSION = "0.1.0"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fnUntraced(function*(handlers) {
    const sql = yield* SqlClient.SqlClient
    const database = yield* DatabaseInfo
    const cluster = yield* ClusterInfo
    const startedAt = yield* Clock.currentTimeMillis
    const lifecycle = yield* NodeLifecycle
    return handlers.handle(
      "health",
      Effect.fnUntraced(function*() {
        if (lifecycle.draining) {
          return yield* new ServiceUnavailable({
            message: "the node is shutting down",
            errors: [{ field: "node", message: "DRAINING", code: "SHUTTING_DOWN" }]
          })
        }
        const before = yield* Clock.currentTimeMillis
        const probe = yield* sql`SELECT 1 AS ok`.pipe(Effect.timeout("2 seconds"), Effect.result)
        const now = yield* Clock.currentTimeMillis
        if (probe._tag === "Failure") {
          return yield* new ServiceUnavailable({
            message: `database (${database.kind}) is not answering`,
            errors: [{ field: "database", message: "DOWN", code: "DATABASE_DOWN" }]
          })
        }
        const clusterStatus = yield* cluster.status
        const activeEntities = yield* cluster.activeEntities
        return {
          status: clusterStatus === "UP" ? "UP" as const : "DOWN" as const,
          database: { status: "UP" as const, kind: database.kind, latencyMs: now - before },
          cluster: { status: clusterStatus, mode: cluster.mode, runnerStorage: cluster.runnerStorage, activeEntities },
          requestsInFlight: lifecycle.inFlight,
          version: VERSION,
          uptimeSeconds: Math.round((now - startedAt) / 1000)
        }
      })
    )
  })
)

// The one SQL client of the service: a real PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite
// (file-backed in DATA_DIR, or `memory://`) behind the in-process wire bridge. Both are reached through
// @effect/sql-pg, so no other code knows which one it has.
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { mkdirSync } from "node:fs"
import { AppConfig } from "../../config.ts"
import { makePgliteBridge } from "./PgliteBridge.ts"
import { openDurablePglite } from "./PgliteDurability.ts"

export type DatabaseKind = "postgresql" | "pglite"

export interface DatabaseInfoShape {
  readonly kind: DatabaseKind
  /** Where the data lives: the data dir for PGlite, host/database for PostgreSQL (no credentials). */
  readonly location: string
  /** The embedded database itself, when it is one (tests close it to see the service notice). */
  readonly embedded?: PGlite | undefined
}

export class DatabaseInfo extends Context.Service<DatabaseInfo, DatabaseInfoShape>()("flowcore/DatabaseInfo") {}

const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "postgresql"
  }
}

const postgresLayer = (url: string, poolSize: number) =>
  Layer.merge(
    // Multiplexed: statements of concurrent requests share pooled connections and go out in one socket write
    // (transactions still take a connection of their own).
    PgClient.layer({ url: Redacted.make(url), maxConnections: poolSize, applicationName: "flowcore", multiplex: true }),
    Layer.succeed(DatabaseInfo, { kind: "postgresql", location: describeUrl(url) })
  )

const pgliteLayer = (dataDir: string, poolSize: number) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const { db } = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => {
            if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true })
            return openDurablePglite(dataDir)
          },
          catch: (cause) => new Error(`Cannot open the embedded database in ${dataDir}: ${String(cause)}`)
        }),
        ({ db }) => Effect.promise(() => db.close().catch(() => undefined))
      )
      const bridge = makePgliteBridge(db, (error) => console.error("[pglite-bridge]", error))
      return Layer.merge(
        PgClient.layer({
          database: "postgres",
          username: "postgres",
          maxConnections: poolSize,
          stream: bridge.connect
        }),
        Layer.succeed(DatabaseInfo, { kind: "pglite", location: dataDir, embedded: db })
      )
    })
  )

/** SqlClient + PgClient + DatabaseInfo, chosen by the configuration. */
export const DatabaseLive: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | DatabaseInfo, unknown, AppConfig> =
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      config.databaseUrl !== undefined
        ? postgresLayer(config.databaseUrl, config.databasePoolSize)
        : pgliteLayer(config.dataDir, Math.min(config.databasePoolSize, 4)))
  )

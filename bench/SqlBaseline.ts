// The database baseline every throughput figure of `npm run bench` is divided by: single-row inserts through the same
// Node SQL client the service uses (@effect/sql-pg, or the PGlite bridge), `concurrency` at a time.
import { type Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"

export interface SqlBaselineRates {
  /** Each INSERT on its own: one statement, its own transaction (as pgbench's insert script runs them). */
  readonly autocommit: number
  /** Each INSERT between BEGIN and COMMIT (the form earlier rounds divided by). */
  readonly explicit: number
}

/** Transactions per second of both forms, after `warmUp` unmeasured inserts, over `total` inserts each. */
export const sqlBaseline = async (
  layer: Layer.Layer<SqlClient.SqlClient, unknown>,
  options: { readonly concurrency: number; readonly total: number; readonly warmUp: number }
): Promise<SqlBaselineRates> => {
  const runtime = ManagedRuntime.make(layer)
  try {
    const sql = await runtime.runPromise(SqlClient.SqlClient)
    await runtime.runPromise(
      sql`CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, n integer NOT NULL, at timestamptz NOT NULL)`
    )
    const rate = async (explicitTransaction: boolean, total: number) => {
      let next = 0
      const t0 = performance.now()
      await Promise.all(Array.from({ length: options.concurrency }, async () => {
        while (next < total) {
          const insert = sql`INSERT INTO bench_baseline (n, at) VALUES (${next++}, now())`
          await runtime.runPromise(explicitTransaction ? sql.withTransaction(insert) : insert)
        }
      }))
      return Math.round(total / ((performance.now() - t0) / 1000))
    }
    // Unmeasured first: the pool opens its connections (`concurrency` of them on PostgreSQL) on first use, and the
    // client's code warms up. A warm-up of 256 inserts was too short (session 14): the next 2,000 still ran at half the
    // steady rate (1,300–2,300 against 4,300–5,100 tx/s on PostgreSQL, chunk by chunk), and every ratio printed until
    // then divided by that cold figure.
    await rate(false, options.warmUp)
    return { autocommit: await rate(false, options.total), explicit: await rate(true, options.total) }
  } finally {
    await runtime.dispose()
  }
}

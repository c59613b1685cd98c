// StatisticsKeeper (src/actors/StatisticsKeeper.ts): on a PostgreSQL server run with autovacuum off, a table whose
// rows changed past autovacuum's analyze threshold gets ANALYZEd (on a small sample), so the planner sees its real size.
// Runs on PostgreSQL (DATABASE_URL; .ci/run's API stage); on a server whose autovacuum is on there is nothing to check.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { staleTables } from "../../src/actors/StatisticsKeeper.ts"
import { eventually } from "../support/Eventually.ts"
import { givenTenant } from "../support/Scenario.ts"

const onPostgres = process.env["DATABASE_URL"] !== undefined
if (!onPostgres) console.warn("test/actors/statistics-keeper skipped: it needs DATABASE_URL; .ci/run runs it")

describe.runIf(onPostgres)("table statistics", () => {
  it("ANALYZEs a table once enough of its rows changed, on a small sample", async () => {
    const tenant = await givenTenant()
    const run = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      tenant.app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
    const [setting] = await run((sql) => sql<{ autovacuum: string }>`SHOW autovacuum`)
    if (setting?.autovacuum === "on") return console.warn("autovacuum is on: the keeper has nothing to do here")
    // A table of its own in `public` (where the keeper looks), never analyzed: whatever the other tests did to the
    // service's tables (and when their last ANALYZE was) does not matter.
    const table = `keeper_probe_${Math.random().toString(36).slice(2, 10)}`
    await run((sql) => sql`CREATE TABLE ${sql(table)} (id bigserial PRIMARY KEY, n integer NOT NULL)`)
    try {
      await run((sql) => sql`INSERT INTO ${sql(table)} (n) SELECT generate_series(1, 300)`)
      // 300 rows are past 50 + 10 % of an empty table: a round of the loop (every 5 s) analyzes it.
      await eventually(async () => {
        const [row] = await run((sql) =>
          sql<{ analyzed: boolean }>`SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables
            WHERE schemaname = 'public' AND relname = ${table}`
        )
        expect(row?.analyzed).toBe(true)
      }, { timeoutMs: 30_000, intervalMs: 250 })
      // With a small sample (statistics target 10): the histogram of a column of 300 distinct values has at most 11
      // bounds; PostgreSQL's default target (100) gives 101.
      const [stats] = await run((sql) =>
        sql<{ bounds: number | null }>`SELECT array_length(histogram_bounds, 1) AS bounds FROM pg_stats
          WHERE schemaname = 'public' AND tablename = ${table} AND attname = 'n'`
      )
      expect(stats?.bounds).toBeGreaterThan(1)
      expect(stats?.bounds).toBeLessThanOrEqual(11)
    } finally {
      await run((sql) => sql`DROP TABLE ${sql(table)}`)
    }
  }, 60_000)

  it("waits a minute before analyzing a table again, unless it more than doubled", async () => {
    const tenant = await givenTenant()
    // A schema of its own: the service's keeper looks only at `public`, so it cannot analyze this table meanwhile.
    const schema = `keeper_${Math.random().toString(36).slice(2, 10)}`
    const run = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
      tenant.app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
    const counters = () =>
      run((sql) =>
        sql<{ mods: string | number }>`SELECT n_mod_since_analyze AS mods FROM pg_stat_user_tables
          WHERE schemaname = ${schema} AND relname = 'rows'`
      ).then((rows) => Number(rows[0]?.mods ?? -1))
    const stale = () => run((sql) => staleTables(sql, schema)).then((rows) => rows.map((row) => row.table_name))
    const insert = (count: number) =>
      run((sql) => sql`INSERT INTO ${sql(schema)}.rows (n) SELECT generate_series(1, ${count})`)
    await run((sql) => sql`CREATE SCHEMA ${sql(schema)}`)
    try {
      await run((sql) => sql`CREATE TABLE ${sql(schema)}.rows (id bigserial PRIMARY KEY, n integer NOT NULL)`)
      await insert(1_000)
      await eventually(async () => expect(await counters()).toBeGreaterThanOrEqual(1_000), { timeoutMs: 10_000 })
      expect(await stale()).toEqual(["rows"]) // never analyzed
      await run((sql) => sql.withTransaction(sql`ANALYZE ${sql(schema)}.rows`))
      await insert(500) // +50 %: past autovacuum's 10 %, but analyzed just now and not doubled
      await eventually(async () => expect(await counters()).toBe(500), { timeoutMs: 10_000 })
      expect(await stale()).toEqual([])
      await insert(1_000) // 2,500 rows against the 1,000 the ANALYZE saw
      await eventually(async () => expect(await counters()).toBe(1_500), { timeoutMs: 10_000 })
      expect(await stale()).toEqual(["rows"])
    } finally {
      await run((sql) => sql`DROP SCHEMA ${sql(schema)} CASCADE`)
    }
  }, 60_000)
})

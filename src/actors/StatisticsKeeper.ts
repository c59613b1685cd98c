// Keeps the planner's statistics current on a PostgreSQL server run with `autovacuum = off` (this CI machine's is).
// Autovacuum ANALYZEs a table once 50 + 10 % of its rows changed since the last time; without it the statistics stay
// those of the empty tables the first statements were planned on, and the prepared statements keep the generic plans
// made then, which scan: ~1,600–2,000 rows read per completed instance in `npm run bench` against ~250 with
// statistics kept current, and 0.61–0.74 against 0.50–0.55 ms of PostgreSQL CPU per instance (session 11). So this
// loop, run once per cluster, does what autovacuum would: ANALYZE each table changed past the same threshold.
// (ANALYZE blocks no reads or writes; the cached plans of a table are made again at their next use.) Where
// autovacuum runs, it does nothing; nor on the embedded PGlite, whose ANALYZE runs on the service's own thread: it
// stalled the event loop for 400–650 ms and cost more than the better plans saved.
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { runClusterLoop } from "../cluster/ClusterLoop.ts"
import { DatabaseInfo } from "../persistence/database/Database.ts"

/** PostgreSQL's defaults: autovacuum_analyze_threshold and autovacuum_analyze_scale_factor. */
const THRESHOLD_ROWS = 50
const SCALE_FACTOR = 0.1
/**
 * The sample is 300 rows per unit of target (PostgreSQL's default 100: 30,000 rows). With the default, a round over the
 * large tables (wide jsonb rows) took a core for ~1.5 s, and publishes at a steady rate waited up to 700 ms behind it
 * (session 13); 3,000 rows tell the planner what it needs here (row counts, key distributions).
 */
const STATISTICS_TARGET = 10
/**
 * A table analyzed less than this long ago waits, unless it has more than doubled since (autovacuum's own pace is one
 * look per database a minute). Every ANALYZE makes each connection plan again every statement on that table (the
 * group commit's statement touches most tables), and a table that keeps growing, or churns like the subscriptions,
 * passes the 10 % mark every round: at a steady 400 publishes/s each 5 s round showed as a window of 80–120 ms
 * publishes (session 13). Plans made on an empty or far smaller table are still corrected within a round.
 */
const MIN_INTERVAL_SECONDS = 60

/**
 * The tables of `schema` whose statistics are due: changed past autovacuum's threshold, and not analyzed within
 * MIN_INTERVAL_SECONDS unless they more than doubled since (reltuples: the row count the last ANALYZE saw, -1 or 0
 * before any).
 */
export const staleTables = (sql: SqlClient.SqlClient, schema: string) =>
  sql<{ table_name: string }>`SELECT s.relname AS table_name
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = ${schema}
      AND s.n_mod_since_analyze > ${THRESHOLD_ROWS} + ${SCALE_FACTOR} * GREATEST(s.n_live_tup, 0)
      AND (s.last_analyze IS NULL
        OR s.last_analyze < now() - make_interval(secs => ${MIN_INTERVAL_SECONDS})
        OR s.n_live_tup > 2 * GREATEST(c.reltuples, 0) + ${THRESHOLD_ROWS})
    ORDER BY s.n_mod_since_analyze DESC LIMIT 20`.pipe(Effect.orDie)

export const StatisticsKeeper = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const database = yield* DatabaseInfo
    if (database.kind !== "postgresql") return
    const [setting] = yield* sql<{ autovacuum: string }>`SHOW autovacuum`.pipe(Effect.orDie)
    if (setting?.autovacuum === "on") return
    const round = Effect.gen(function*() {
      const stale = yield* staleTables(sql, "public")
      // In a transaction, so on a connection of its own: on the shared (multiplexed) connections the statements
      // queued behind an ANALYZE of a large table waited for it (job push p99 of 300–500 ms at half rate).
      for (const { table_name } of stale) {
        yield* sql.withTransaction(
          Effect.andThen(
            sql`SELECT set_config('default_statistics_target', ${String(STATISTICS_TARGET)}, true)`,
            sql`ANALYZE ${sql(table_name)}`
          )
        )
      }
    })
    yield* runClusterLoop("table-statistics", "5 seconds", round)
  })
)

// Keeps the embedded PGlite clear of transaction-id wraparound. PostgreSQL stamps each row with the id of the
// transaction that wrote it, and ids wrap after 2^31: before that, VACUUM must freeze the old rows, or the server stops
// taking writes ("database is not accepting commands to avoid wraparound data loss"). A PostgreSQL server's autovacuum
// does that even when it is switched off; PGlite runs no autovacuum at all. The group commit spends few ids (5,796 for
// 41,583 one-task instances in 60 s of full load), but at that pace 2^31 is ~8 months away. So this loop, every
// ten minutes, freezes with `VACUUM (FREEZE)` each table whose oldest unfrozen id is older than FREEZE_AGE (what
// PostgreSQL's vacuum_freeze_table_age is), a few tables a round. It runs on PGlite's one thread, as everything of
// PGlite does: ~1 s for a database of 660 MB (docs/operations.md "The embedded database"). On PostgreSQL it does
// nothing: the server's own anti-wraparound vacuum runs.
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { runClusterLoop } from "../cluster/ClusterLoop.ts"
import { DatabaseInfo } from "../persistence/database/Database.ts"

/** Transactions since a table's oldest unfrozen row past which it is frozen (PostgreSQL's vacuum_freeze_table_age). */
export const FREEZE_AGE = 150_000_000
/** At most this many tables a round: a round stays short, and the oldest go first. */
const TABLES_PER_ROUND = 3

/** Freezes the tables of `public` older than `maxAge` transactions, oldest first; answers the tables frozen. */
export const freezeOldTables = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, maxAge: number) {
  const old = yield* sql<{ table_name: string }>`SELECT c.relname AS table_name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm') AND age(c.relfrozenxid) > ${maxAge}
    ORDER BY age(c.relfrozenxid) DESC LIMIT ${TABLES_PER_ROUND}`.pipe(Effect.orDie)
  for (const { table_name } of old) yield* sql`VACUUM (FREEZE) ${sql(table_name)}`.pipe(Effect.orDie)
  return old.map((table) => table.table_name)
})

export const EmbeddedFreezer = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const database = yield* DatabaseInfo
    if (database.kind !== "pglite") return
    yield* runClusterLoop("embedded-freeze", "10 minutes", freezeOldTables(sql, FREEZE_AGE))
  })
)

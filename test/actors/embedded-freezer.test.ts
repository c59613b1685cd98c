// EmbeddedFreezer (src/actors/EmbeddedFreezer.ts): on the embedded PGlite, which runs no autovacuum, a table whose
// oldest unfrozen row is older than the limit gets `VACUUM (FREEZE)`, so transaction ids never come near wraparound.
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { freezeOldTables } from "../../src/actors/EmbeddedFreezer.ts"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { testConfig } from "../support/TestApp.ts"

const onPglite = <A>(work: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(
    work.pipe(
      Effect.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined }))))
    )
  )

const ageOf = (sql: SqlClient.SqlClient, table: string) =>
  Effect.map(
    sql<{ age: number }>`SELECT age(relfrozenxid)::int AS age FROM pg_class WHERE relname = ${table}`,
    (rows) => rows[0]!.age
  )

describe("embedded freezer", () => {
  it("freezes a table past the age limit, and leaves younger ones alone", async () => {
    const { before, spared, frozen, after } = await onPglite(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE freeze_probe (id int PRIMARY KEY)`
      // Each insert its own transaction: 60 transaction ids since the table was made.
      for (let i = 0; i < 60; i++) yield* sql`INSERT INTO freeze_probe VALUES (${i})`
      const before = yield* ageOf(sql, "freeze_probe")
      const spared = yield* freezeOldTables(sql, 1_000)
      const frozen = yield* freezeOldTables(sql, 30)
      return { before, spared, frozen, after: yield* ageOf(sql, "freeze_probe") }
    }))
    expect(before).toBeGreaterThanOrEqual(60)
    expect(spared).toEqual([])
    expect(frozen).toEqual(["freeze_probe"])
    expect(after).toBeLessThan(30)
  }, 60_000)
})

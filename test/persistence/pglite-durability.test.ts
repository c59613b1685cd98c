// The embedded database waits for the disk at each commit: PostgreSQL inside PGlite runs with fsync on, and its
// fsync calls reach the data dir's files (PGlite ships with both off: see src/persistence/database/PgliteDurability.ts).
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { openDurablePglite } from "../../src/persistence/database/PgliteDurability.ts"
import { testConfig } from "../support/TestApp.ts"

const dirs: Array<string> = []
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "flowcore-durability-"))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const setting = async (db: { query: (sql: string) => Promise<{ rows: Array<unknown> }> }, name: string) =>
  Object.values((await db.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[0]

describe("PGlite durability", () => {
  it("runs with fsync on, and every commit syncs the data dir", async () => {
    const { db, synced } = await openDurablePglite(freshDir())
    try {
      expect(await setting(db, "fsync")).toBe("on")
      expect(await setting(db, "wal_sync_method")).toBe("fsync")
      await db.exec("CREATE TABLE t (id int PRIMARY KEY)")
      const before = synced()
      for (let i = 0; i < 20; i++) await db.query("INSERT INTO t VALUES ($1)", [i])
      expect(synced() - before).toBeGreaterThanOrEqual(20)
      // A read-only statement commits nothing and waits for no disk.
      const afterWrites = synced()
      await db.query("SELECT count(*) FROM t")
      expect(synced()).toBe(afterWrites)
      // A checkpoint syncs the data files it wrote.
      await db.exec("CHECKPOINT")
      expect(synced()).toBeGreaterThan(afterWrites)
    } finally {
      await db.close()
    }
  }, 60_000)

  it("keeps what was committed across a reopen", async () => {
    const dir = freshDir()
    const first = await openDurablePglite(dir)
    await first.db.exec("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)")
    await first.db.close()
    const second = await openDurablePglite(dir)
    try {
      expect((await second.db.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 3 }])
    } finally {
      await second.db.close()
    }
  }, 60_000)

  it("is what the service opens for a data dir", async () => {
    const fsync = await Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ fsync: string }>`SHOW fsync`
        return row!.fsync
      }).pipe(
        Effect.provide(
          Layer.provide(
            DatabaseLive,
            Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined, dataDir: freshDir() }))
          )
        )
      )
    )
    expect(fsync).toBe("on")
  }, 60_000)
})

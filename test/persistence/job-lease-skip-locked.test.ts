// Concurrent activations of one job type neither wait for one another nor pick the same jobs (JobLeases.leaseNext):
// while another session holds the oldest jobs locked (an activation leasing them), a lease walks past them and takes
// the next ones at once. Needs a second session, so it runs on PostgreSQL (DATABASE_URL; CI's PostgreSQL stage).
import { Deferred, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { JobLeases } from "../../src/persistence/jobs/JobLeases.ts"
import { migrateWith, MIGRATIONS } from "../../src/persistence/Migrations.ts"
import { testConfig } from "../support/TestApp.ts"

const DATABASE_URL = process.env["DATABASE_URL"]
if (DATABASE_URL === undefined) console.log("job-lease-skip-locked: skipped, it needs DATABASE_URL (PostgreSQL)")

describe.skipIf(DATABASE_URL === undefined)("job leases on PostgreSQL", () => {
  it("walk past the jobs another activation is leasing and take the next ones, without waiting", async () => {
    const tenant = crypto.randomUUID()
    let ids: ReadonlyArray<string> = []
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()
    const program = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const leases = yield* JobLeases
      // Jobs of instances that are not rows here: the foreign key is not what this is about.
      yield* sql`SET session_replication_role = replica`
      const made: Array<string> = []
      ids = made
      for (let i = 0; i < 6; i++) {
        const id = crypto.randomUUID()
        made.push(id)
        yield* sql`INSERT INTO jobs (tenant_id, id, instance_id, node_id, element_instance_id, type, state, retries,
            custom_headers, variables, created_at, updated_at)
          VALUES (${tenant}, ${id}, gen_random_uuid(), 'work', ${`token-${i}`}, 'skip-work', 'ACTIVATABLE', 3,
            '{}', '{}', ${at(i)}, ${at(i)})`
      }
      yield* sql`RESET session_replication_role`
      const lease = (worker: string, limit: number) =>
        leases.leaseNext({
          tenantId: tenant,
          jobType: "skip-work",
          worker,
          deadline: at(3_600),
          now: at(60),
          limit
        })
      // Another activation holds the two oldest, in a transaction of its own (another session), while this one leases.
      const held = yield* Deferred.make<ReadonlyArray<string>>()
      const letGo = yield* Deferred.make<void>()
      const other = yield* Effect.forkChild(sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<{ id: string }>`SELECT id FROM jobs WHERE tenant_id = ${tenant}
            ORDER BY created_at LIMIT 2 FOR UPDATE`
        yield* Deferred.succeed(held, rows.map((row) => row.id))
        yield* Deferred.await(letGo)
      })))
      expect(yield* Deferred.await(held)).toEqual(ids.slice(0, 2))
      const passed = yield* Effect.timeoutOrElse(lease("b", 2), {
        duration: "10 seconds",
        orElse: () => Effect.die("the lease waited for the other activation's locks")
      })
      const again = yield* lease("c", 10)
      yield* Deferred.succeed(letGo, undefined)
      yield* Fiber.join(other)
      return { passed, again, rest: yield* lease("d", 10) }
    })
    const { again, passed, rest } = await Effect.runPromise(
      Effect.scoped(Effect.gen(function*() {
        yield* migrateWith(MIGRATIONS)
        return yield* program
      })).pipe(
        Effect.provide(
          Layer.provideMerge(
            JobLeases.layer,
            Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: DATABASE_URL })))
          )
        )
      )
    )
    const idsOf = (rows: ReadonlyArray<{ id: unknown }>) => rows.map((row) => String(row.id))
    expect(passed.map((row) => row["worker"])).toEqual(["b", "b"])
    expect(passed.map((row) => row.previous_state)).toEqual(["ACTIVATABLE", "ACTIVATABLE"])
    // The third and fourth oldest, then the two after them: the two held were walked past, not waited for.
    const all = idsOf(passed).concat(idsOf(again))
    expect(all).toHaveLength(4)
    expect(new Set(all).size).toBe(4)
    expect(idsOf(passed).sort()).toEqual(ids.slice(2, 4).sort())
    // Once the other activation let go, the two it held (never leased by it) are free again.
    expect(idsOf(rest)).toHaveLength(2)
    expect(new Set([...all, ...idsOf(rest)]).size).toBe(6)
  }, 60_000)
})

// A published message's lookup of the waiting subscriptions (MessageTargets.targetsStatement) must stay on the message
// index whatever the statistics say. The case that broke it: the last ANALYZE saw the table empty (every subscription
// consumed), thousands were added since, and the planner read the whole table in primary-key order for each asked key.
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/Database.ts"
import { type Asked, targetsStatement } from "../../src/persistence/MessageTargets.ts"
import { migrateWith, MIGRATIONS } from "../../src/persistence/Migrations.ts"
import { testConfig } from "../support/TestApp.ts"

const TENANT = "00000000-0000-0000-0000-00000000000a"
const WAITING = 5_000

describe("message lookup plan", () => {
  it("reads the subscriptions by the message index when the statistics saw the table empty", async () => {
    const asked: ReadonlyArray<Asked> = Array.from({ length: 30 }, (_, i) => ({
      i,
      tenant_id: TENANT,
      name: "paid",
      correlation_key: `key-${i * 7}`
    }))
    const { plan, rows } = await Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* migrateWith(MIGRATIONS)
        // Subscriptions of instances that are not rows here: the foreign key is not what this is about.
        yield* sql`SET session_replication_role = replica`
        const subscribe = (prefix: string, count: number) =>
          sql`INSERT INTO event_subscriptions (tenant_id, id, instance_id, node_id, element_instance_id, kind, name,
              correlation_key, created_at)
            SELECT ${TENANT}::uuid, 'wait', gen_random_uuid(), 'wait', 'token-' || i, 'MESSAGE', 'paid',
              ${prefix} || i::text, now()
            FROM generate_series(0, ${count - 1}) i`
        // Subscriptions made and all consumed, the statistics taken then; many more made since.
        yield* subscribe("earlier-", 3_000)
        yield* sql`ANALYZE event_subscriptions`
        yield* sql`DELETE FROM event_subscriptions`
        yield* sql`ANALYZE event_subscriptions`
        yield* subscribe("key-", WAITING)
        yield* sql`RESET session_replication_role`
        const [explained] = yield* sql<{ "QUERY PLAN": unknown }>`EXPLAIN (FORMAT JSON) ${
          targetsStatement(sql, asked, new Date().toISOString())
        }`
        return {
          plan: JSON.stringify(explained!["QUERY PLAN"]),
          rows: yield* targetsStatement(sql, asked, new Date().toISOString())
        }
      }).pipe(
        Effect.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined }))))
      )
    )
    expect(plan).toContain("event_subscriptions_message")
    expect(plan).not.toContain("event_subscriptions_pkey")
    expect(rows.map((row) => row.i)).toEqual(asked.map((one) => one.i))
    expect(new Set(rows.map((row) => row.instance_id)).size).toBe(asked.length)
  }, 60_000)
})

// A published message's lookup of the waiting subscriptions (MessageTargets.targetsStatement) must stay on the message
// index whatever the statistics say. The case that broke it: the last ANALYZE saw the table empty (every subscription
// consumed), thousands were added since, and the planner read the whole table in primary-key order for each asked key.
// And the idle instances' rows that come with it must be read by their primary key: on PGlite, never analyzed, the
// planner ran that join as a hash join over every instance row (docs/scaling.md, session 28).
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { type Asked, targetsStatement } from "../../src/persistence/instances/MessageTargets.ts"
import { migrateWith, MIGRATIONS } from "../../src/persistence/Migrations.ts"
import { testConfig } from "../support/TestApp.ts"

const TENANT = "00000000-0000-0000-0000-00000000000a"
const WAITING = 5_000
const withDatabase = <A>(work: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      yield* migrateWith(MIGRATIONS)
      return yield* work
    }).pipe(
      Effect.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined }))))
    )
  )
// Every "node type relation" of a JSON plan, for the scans of a table.
const scansOf = (plan: unknown): Array<string> => {
  if (Array.isArray(plan)) return plan.flatMap(scansOf)
  if (typeof plan !== "object" || plan === null) return []
  const node = plan as Record<string, unknown>
  const own = typeof node["Relation Name"] === "string" ? [`${node["Node Type"]} ${node["Relation Name"]}`] : []
  return [...own, ...Object.values(node).flatMap(scansOf)]
}
const instanceId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`

/** `count` asked keys: key-0, key-step, key-2·step, ... */
const askedKeys = (count: number, step: number): ReadonlyArray<Asked> =>
  Array.from({ length: count }, (_, i) => ({ i, tenant_id: TENANT, name: "paid", correlation_key: `key-${i * step}` }))

/**
 * `count` waiting subscriptions, keys `prefix`0, `prefix`1, ...: of instances numbered as `instanceId` numbers them
 * (`numbered`), or of random ids (`replica` role: the foreign key is not what this is about).
 */
const subscribe = (sql: SqlClient.SqlClient, prefix: string, count: number, instances: "numbered" | "random") =>
  sql`INSERT INTO event_subscriptions (tenant_id, id, instance_id, node_id, element_instance_id, kind, name,
      correlation_key, created_at)
    SELECT ${TENANT}::uuid, 'wait', ${
    instances === "numbered"
      ? sql`('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid`
      : sql`gen_random_uuid()`
  }, 'wait', 'token-' || i, 'MESSAGE', 'paid', ${prefix} || i::text, now()
    FROM generate_series(0, ${count - 1}) i`

/** The lookup's plan (JSON text) and its rows. */
const planAndRows = (sql: SqlClient.SqlClient, asked: ReadonlyArray<Asked>, idleSince: string) =>
  Effect.gen(function*() {
    const [explained] = yield* sql<{ "QUERY PLAN": unknown }>`EXPLAIN (FORMAT JSON) ${
      targetsStatement(sql, asked, idleSince)
    }`
    return {
      plan: JSON.stringify(explained!["QUERY PLAN"]),
      rows: yield* targetsStatement(sql, asked, idleSince)
    }
  })

describe("message lookup plan", () => {
  it("reads the subscriptions by the message index when the statistics saw the table empty", async () => {
    const asked = askedKeys(30, 7)
    const { plan, rows } = await withDatabase(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`SET session_replication_role = replica`
        // Subscriptions made and all consumed, the statistics taken then; many more made since.
        yield* subscribe(sql, "earlier-", 3_000, "random")
        yield* sql`ANALYZE event_subscriptions`
        yield* sql`DELETE FROM event_subscriptions`
        yield* sql`ANALYZE event_subscriptions`
        yield* subscribe(sql, "key-", WAITING, "random")
        yield* sql`RESET session_replication_role`
        return yield* planAndRows(sql, asked, new Date().toISOString())
      })
    )
    expect(plan).toContain("event_subscriptions_message")
    expect(plan).not.toContain("event_subscriptions_pkey")
    expect(rows.map((row) => row.i)).toEqual(asked.map((one) => one.i))
    expect(new Set(rows.map((row) => row.instance_id)).size).toBe(asked.length)
  }, 60_000)

  it("reads the idle instances' rows by their primary key on tables never analyzed", async () => {
    const asked = askedKeys(64, 11)
    const { plan, rows } = await withDatabase(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`SET session_replication_role = replica`
        yield* sql`INSERT INTO process_instances (tenant_id, id, deployment_id, process_key, version, state,
            root_instance_id, variables, engine_state, started_by, started_at, updated_at)
          SELECT ${TENANT}::uuid, ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, gen_random_uuid(), 'p',
            1, 'ACTIVE', gen_random_uuid(), '{}'::jsonb, '{"tokens":[]}'::jsonb, 'bench', now() - interval '1 hour',
            now() - interval '1 hour'
          FROM generate_series(0, ${WAITING - 1}) i`
        yield* subscribe(sql, "key-", WAITING, "numbered")
        yield* sql`RESET session_replication_role`
        return yield* planAndRows(sql, asked, new Date().toISOString())
      })
    )
    expect(scansOf(JSON.parse(plan))).toContain("Index Scan process_instances")
    expect(scansOf(JSON.parse(plan))).not.toContain("Seq Scan process_instances")
    expect(rows.map((row) => row.p_id)).toEqual(asked.map((_, i) => instanceId(i * 11)))
    expect(rows.every((row) => row.engine_state === "{\"tokens\": []}")).toBe(true)
  }, 60_000)
})

// Migration 0032 moves the history from one row per event into one row per commit (instance_event_batches) behind the
// view instance_events. Events written before it must read back through the view exactly as they were written: same
// numbering, types, nodes, tokens, payloads, actors and times — also where one instance's commits share a time and an
// actor without being consecutive.
import { Effect, Layer } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { migrateWith, MIGRATIONS } from "../../src/persistence/Migrations.ts"
import { testConfig } from "../support/TestApp.ts"

const TENANT_A = "00000000-0000-0000-0000-00000000000a"
const TENANT_B = "00000000-0000-0000-0000-00000000000b"
const INSTANCE_A = "10000000-0000-0000-0000-000000000001"
const INSTANCE_B = "20000000-0000-0000-0000-000000000002"
const T1 = "2026-01-01T10:00:00.000Z"
const T2 = "2026-01-01T10:00:01.000Z"

interface OldEvent {
  readonly tenant_id: string
  readonly instance_id: string
  readonly event_seq: number
  readonly type: string
  readonly node_id: string | null
  readonly token_id: string | null
  readonly payload: unknown
  readonly actor: string | null
  readonly occurred_at: string
}

const event = (
  instance: string,
  seq: number,
  occurredAt: string,
  actor: string | null,
  nodeId: string | null = `node-${seq}`
): OldEvent => ({
  tenant_id: instance === INSTANCE_A ? TENANT_A : TENANT_B,
  instance_id: instance,
  event_seq: seq,
  type: `Type${seq}`,
  node_id: nodeId,
  token_id: nodeId === null ? null : `token-${seq}`,
  payload: { seq, text: `quote " backslash \\ ünïcode ${seq}`, nested: { list: [seq, null, true] } },
  actor,
  occurred_at: occurredAt
})

// Instance A: three commits, the first and the third at the same time by the same actor (not consecutive: they must
// stay apart, or the third's events would be numbered after the first's); instance B: one commit without an actor.
const written: ReadonlyArray<OldEvent> = [
  event(INSTANCE_A, 1, T1, "alice"),
  event(INSTANCE_A, 2, T1, "alice", null),
  event(INSTANCE_A, 3, T1, "alice"),
  event(INSTANCE_A, 4, T2, "bob"),
  event(INSTANCE_A, 5, T2, "bob"),
  event(INSTANCE_A, 6, T1, "alice"),
  event(INSTANCE_A, 7, T1, "alice"),
  event(INSTANCE_B, 1, T2, null),
  event(INSTANCE_B, 2, T2, null)
]

const before = Object.fromEntries(
  Object.entries(MIGRATIONS).filter(([name]) => name < "0032")
) as Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

const readBack = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<Record<string, unknown>>`SELECT tenant_id, instance_id, event_seq, type, node_id, token_id, payload, actor,
      occurred_at FROM instance_events ORDER BY instance_id, event_seq`,
    (rows) =>
      rows.map((row) => ({
        ...row,
        event_seq: Number(row["event_seq"]),
        payload: typeof row["payload"] === "string" ? JSON.parse(row["payload"]) : row["payload"],
        occurred_at: new Date(row["occurred_at"] as string).toISOString()
      }))
  )

describe("migration 0032: history as one row per commit", () => {
  it("reads every event written before it back through the view, numbered as written", async () => {
    const program = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* migrateWith(before)
      yield* sql`INSERT INTO instance_events ${
        sql.insert(
          written.map((row) => ({ ...row, payload: JSON.stringify(row.payload) })) as unknown as NonEmptyReadonlyArray<
            Record<string, unknown>
          >
        )
      }`
      yield* migrateWith(MIGRATIONS)
      const events = yield* readBack(sql)
      const batches = yield* sql<{ instance_id: string; first_seq: unknown }>`
        SELECT instance_id, first_seq FROM instance_event_batches ORDER BY instance_id, first_seq`
      return { events, batches }
    })
    const { batches, events } = await Effect.runPromise(
      program.pipe(
        Effect.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined })))),
        Effect.scoped
      )
    )
    expect(events).toEqual(written)
    // runs of one commit each: A's 1-3, 4-5 and 6-7; B's 1-2
    expect(batches.map((row) => `${row.instance_id.slice(0, 1)}:${Number(row.first_seq)}`)).toEqual([
      "1:1",
      "1:4",
      "1:6",
      "2:1"
    ])
  })
})

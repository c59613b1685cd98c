// A test-only cluster entity: proves the cluster runtime that starts with the app routes messages to entities,
// one at a time per entity, with state kept in the service's database.
import { Effect, Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { SqlClient } from "effect/sql"

export const Add = Rpc.make("Add", { payload: { amount: Schema.Int }, success: Schema.Int })
export const Get = Rpc.make("Get", { success: Schema.Int })
export const Counter = Entity.make("TestCounter", [Add, Get])

export const CounterLive = Counter.toLayer(
  Effect.gen(function*() {
    const id = (yield* Entity.CurrentAddress).entityId
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS test_counters (tenant_id text NOT NULL DEFAULT 'test', id text PRIMARY KEY, n int NOT NULL)`
      .pipe(Effect.orDie)
    const rows = yield* sql<{ n: number }>`SELECT n FROM test_counters WHERE id = ${id}`.pipe(Effect.orDie)
    let n = rows[0]?.n ?? 0
    return Counter.of({
      // Read, yield, then write: interleaved handlers would lose updates; the entity must run them one at a time.
      Add: ({ payload }) =>
        Effect.gen(function*() {
          const before = n
          yield* Effect.yieldNow
          n = before + payload.amount
          yield* sql`INSERT INTO test_counters (id, n) VALUES (${id}, ${n}) ON CONFLICT (id) DO UPDATE SET n = EXCLUDED.n`
            .pipe(Effect.orDie)
          return n
        }),
      Get: () => Effect.succeed(n)
    })
  }),
  { maxIdleTime: "1 minute" }
)

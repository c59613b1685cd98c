// A message to an instance no longer in memory runs on the instance's row as the message's lookup read it
// (persistence/instances/InstanceSnapshots.ts), without a load of its own; a row that old is trusted for a commit (guarded by the
// instance's last event sequence) and a rejection from it is checked against a fresh load.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ResidentInstances } from "../../src/cluster/ResidentInstances.ts"
import {
  type InstanceRow,
  InstanceSnapshots,
  LOOKUP_ROWS_PER_MESSAGE
} from "../../src/persistence/instances/InstanceSnapshots.ts"
import { metricSum } from "../support/MetricsScrape.ts"
import { type Caller, fixture, Tenant } from "../support/Scenario.ts"
import { bootApp, type TestApp } from "../support/TestApp.ts"

describe("instances loaded with a message's lookup", () => {
  let app: TestApp
  let owner: Caller
  let waiting: string
  const run = <A>(effect: Effect.Effect<A, unknown, any>): Promise<A> => app.runtime.runPromise(effect)
  const residents = () =>
    run(Effect.gen(function*() {
      return (yield* ResidentInstances).count()
    }))
  const loads = async (from: "row" | "lookup") => {
    const response = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: "Bearer test-metrics-token" } })
    return metricSum(await response.text(), "flowcore_instance_loads_total", `from="${from}"`)
  }
  /** Past ENTITY_IDLE_SECONDS: every copy leaves memory, and every instance's last change is older than the cutoff. */
  const idle = async () => {
    app.clock.advance("6 seconds")
    await expect.poll(residents, { timeout: 10_000 }).toBe(0)
  }
  const rowOf = (instanceId: string) =>
    run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<InstanceRow>`SELECT id, tenant_id, deployment_id, process_key, version, state,
          parent_instance_id, engine_state::text AS engine_state, last_event_seq FROM process_instances
          WHERE id = ${instanceId}`
      return row!
    }))
  const offer = (row: InstanceRow) =>
    run(Effect.gen(function*() {
      ;(yield* InstanceSnapshots).offer(row)
    }))

  beforeAll(async () => {
    // An app of its own (the clock is moved below), on the embedded database.
    app = await bootApp({ databaseUrl: undefined, entityIdleSeconds: 5 })
    owner = await new Tenant(app, randomUUID()).owner("lookup-tester")
    waiting = (await owner.deploy(fixture("message-wait.bpmn"))).id
  })
  afterAll(async () => {
    await app?.runtime.dispose()
  })

  it("a message to instances that left memory takes their rows from its lookup, with no load of their own", async () => {
    const keys = Array.from({ length: 6 }, (_, i) => `idle-${i}`)
    const started = await Promise.all(keys.map((orderId) => owner.start(waiting, { orderId })))
    await idle()
    const [fromLookup, fromRow] = [await loads("lookup"), await loads("row")]
    const published = await Promise.all(
      keys.map(async (correlationKey, i) =>
        (await owner.post("/messages", { messageName: "payment-received", correlationKey, variables: { paid: i } }))
          .ok(202)
      )
    )
    published.forEach((result, i) => expect(result.instanceIds).toEqual([started[i].id]))
    // Every instance ran on the row its message's lookup read. (A row load may still follow on a busy machine — an
    // entity restarted after its node missed a shard lock renewal reloads its instance — but never one per message.)
    expect(await loads("lookup")).toBe(fromLookup + keys.length)
    const rowsAfter = await loads("row")
    expect(rowsAfter - fromRow).toBeLessThan(keys.length)
    // Each ran on its own row: its variables, the message's, and the next wait.
    for (const [i, instance] of started.entries()) {
      const now = await owner.instance(instance.id)
      expect(now.variables).toMatchObject({ orderId: keys[i], paid: i })
      expect(now.state).toBe("ACTIVE")
    }
    // Still in memory, an instance's next message needs no row at all.
    const again = (await owner.post("/messages", { messageName: "order-confirmed", correlationKey: "C-idle-0" })).ok(
      202
    )
    expect(again.instanceIds).toEqual([started[0].id])
    expect(await loads("lookup")).toBe(fromLookup + keys.length)
    expect(await loads("row")).toBe(rowsAfter)
    expect((await owner.instance(started[0].id)).state).toBe("COMPLETED")
  })

  it("a message to an instance changed since the cutoff, and not in memory, is loaded from its row", async () => {
    const instance = await owner.start(waiting, { orderId: "recent" })
    await idle()
    // Changed just now by another writer (a node that owned the instance meanwhile): the lookup leaves its row.
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE process_instances SET updated_at = ${new Date(app.clock.nowMillis()).toISOString()}
          WHERE id = ${instance.id}`
    }))
    const [fromLookup, fromRow] = [await loads("lookup"), await loads("row")]
    const published = (await owner.post("/messages", { messageName: "payment-received", correlationKey: "recent" }))
      .ok(202)
    expect(published.instanceIds).toEqual([instance.id])
    expect(await loads("lookup")).toBe(fromLookup)
    expect(await loads("row")).toBe(fromRow + 1)
  })

  it("a message to many instances reads the rows of the first LOOKUP_ROWS_PER_MESSAGE; the others load their own", async () => {
    const many = LOOKUP_ROWS_PER_MESSAGE + 6
    const started = await Promise.all(Array.from({ length: many }, () => owner.start(waiting, { orderId: "shared" })))
    await idle()
    const [fromLookup, fromRow] = [await loads("lookup"), await loads("row")]
    const published = (await owner.post("/messages", { messageName: "payment-received", correlationKey: "shared" }))
      .ok(202)
    expect(new Set(published.instanceIds)).toEqual(new Set(started.map((instance: { id: string }) => instance.id)))
    expect(await loads("lookup")).toBe(fromLookup + LOOKUP_ROWS_PER_MESSAGE)
    expect(await loads("row")).toBe(fromRow + 6)
  })

  it("a row older than the instance is trusted neither for a rejection nor for a commit", async () => {
    const instance = await owner.start(waiting, { orderId: "stale" })
    const before = await rowOf(instance.id)
    expect(before.state).toBe("ACTIVE")
    expect((await owner.post(`/process-instances/${instance.id}/suspend`)).status).toBe(200)
    await idle()
    // The old row says ACTIVE, where a resume is refused; the instance is SUSPENDED, where it applies.
    await offer(before)
    expect((await owner.post(`/process-instances/${instance.id}/resume`)).status).toBe(200)
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    await idle()
    // The old row says ACTIVE, where a suspend applies; its commit finds a newer instance, which runs it again.
    await offer(before)
    expect((await owner.post(`/process-instances/${instance.id}/suspend`)).status).toBe(200)
    await idle()
    await offer(before)
    // Now SUSPENDED: a second suspend is refused, though the old row would have applied it.
    expect((await owner.post(`/process-instances/${instance.id}/suspend`)).status).toBe(409)
    const toggles = (await owner.history(instance.id))
      .map((event: { type: string }) => event.type)
      .filter((type: string) => /Suspended|Resumed/.test(type))
    expect(toggles).toEqual(["InstanceSuspended", "InstanceResumed", "InstanceSuspended"])
  })
})

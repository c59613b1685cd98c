// The cluster runtime starts with the app: a test entity receives messages through it, one at a time per entity,
// and keeps its state in the service's database.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { testApp } from "../support/TestApp.ts"
import { Counter } from "../support/TestEntity.ts"

describe("cluster runtime", () => {
  it("delivers many concurrent messages to one entity strictly one at a time", async () => {
    const app = await testApp()
    const id = `counter-${Date.now()}`
    const results = await app.runtime.runPromise(Effect.gen(function*() {
      const client = yield* Counter.client
      return yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), () => client(id).Add({ amount: 1 }), {
        concurrency: "unbounded"
      })
    }))
    // every reply is a distinct running total: no two handlers saw the same state
    expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    const total = await app.runtime.runPromise(Effect.flatMap(Counter.client, (client) => client(id).Get()))
    expect(total).toBe(50)
  })

  it("routes to distinct entities independently", async () => {
    const app = await testApp()
    const prefix = `many-${Date.now()}-`
    const totals = await app.runtime.runPromise(Effect.gen(function*() {
      const client = yield* Counter.client
      yield* Effect.forEach(
        Array.from({ length: 40 }, (_, i) => i),
        (i) => client(prefix + (i % 4)).Add({ amount: 1 }),
        { concurrency: "unbounded" }
      )
      return yield* Effect.forEach([0, 1, 2, 3], (e) => client(prefix + e).Get())
    }))
    expect(totals).toEqual([10, 10, 10, 10])
  })
})

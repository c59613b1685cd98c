// Group commit: a lone write is flushed at once; writes arriving during a flush are committed together in the next;
// each caller gets its own item's outcome; no more flushes run at once than allowed.
import { Deferred, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { makeGroupCommit } from "../../src/persistence/GroupCommit.ts"

/** A flush the test releases by hand, recording every batch it was given. */
const controlledFlush = () => {
  const batches: Array<ReadonlyArray<number>> = []
  const gates: Array<Deferred.Deferred<void>> = []
  let running = 0
  let mostAtOnce = 0
  const flush = (items: ReadonlyArray<number>) =>
    Effect.gen(function*() {
      batches.push(items)
      running++
      mostAtOnce = Math.max(mostAtOnce, running)
      const gate = yield* Deferred.make<void>()
      gates.push(gate)
      yield* Deferred.await(gate)
      running--
      return items.map((n) => (n < 0 ? Exit.fail(`refused ${n}`) : Exit.succeed(n * 10)))
    })
  const release = (index: number) => Deferred.succeed(gates[index]!, undefined)
  return { flush, batches, gates, release, mostAtOnce: () => mostAtOnce }
}

const untilGates = (control: { readonly gates: ReadonlyArray<unknown> }, count: number) =>
  Effect.gen(function*() {
    while (control.gates.length < count) yield* Effect.yieldNow
  })

describe("group commit", () => {
  it("flushes a lone write at once and batches what arrives during a flush", () =>
    Effect.runPromise(Effect.gen(function*() {
      const control = controlledFlush()
      const commits = makeGroupCommit<number, number, string>({ flush: control.flush, maxBatch: 100, maxInFlight: 1 })

      const first = yield* Effect.forkChild(commits.submit(1))
      yield* untilGates(control, 1)
      expect(control.batches).toEqual([[1]])

      // Arriving while the first flush runs: they wait, then go together.
      const later = yield* Effect.forkChild(Effect.all([2, 3, 4].map((n) => commits.submit(n)), { concurrency: 3 }))
      yield* Effect.yieldNow
      expect(control.batches).toHaveLength(1)
      yield* control.release(0)
      expect(yield* Fiber.join(first)).toBe(10)
      yield* untilGates(control, 2)
      expect(control.batches[1]).toEqual([2, 3, 4])
      yield* control.release(1)
      expect(yield* Fiber.join(later)).toEqual([20, 30, 40])
      expect(control.mostAtOnce()).toBe(1)
    })))

  it("answers each caller with its own item's outcome", () =>
    Effect.runPromise(Effect.gen(function*() {
      const control = controlledFlush()
      const commits = makeGroupCommit<number, number, string>({ flush: control.flush, maxBatch: 100, maxInFlight: 1 })
      const blocker = yield* Effect.forkChild(commits.submit(0))
      yield* untilGates(control, 1)
      const good = yield* Effect.forkChild(Effect.exit(commits.submit(5)))
      const bad = yield* Effect.forkChild(Effect.exit(commits.submit(-1)))
      yield* Effect.yieldNow
      yield* control.release(0)
      yield* Fiber.join(blocker)
      yield* untilGates(control, 2)
      yield* control.release(1)
      expect(yield* Fiber.join(good)).toEqual(Exit.succeed(50))
      expect(yield* Fiber.join(bad)).toEqual(Exit.fail("refused -1"))
    })))

  it("runs at most maxInFlight flushes at once, each at most maxBatch long", () =>
    Effect.runPromise(Effect.gen(function*() {
      const control = controlledFlush()
      const commits = makeGroupCommit<number, number, string>({ flush: control.flush, maxBatch: 2, maxInFlight: 2 })
      const all = yield* Effect.forkChild(
        Effect.all([1, 2, 3, 4, 5, 6, 7].map((n) => commits.submit(n)), { concurrency: "unbounded" })
      )
      yield* untilGates(control, 2)
      yield* Effect.yieldNow
      expect(control.gates).toHaveLength(2)
      for (let released = 0; released < 4; released++) {
        yield* untilGates(control, released + 1)
        yield* control.release(released)
      }
      expect(yield* Fiber.join(all)).toEqual([10, 20, 30, 40, 50, 60, 70])
      expect(control.batches.every((batch) => batch.length <= 2)).toBe(true)
      expect(control.batches.flat().sort()).toEqual([1, 2, 3, 4, 5, 6, 7])
      expect(control.mostAtOnce()).toBe(2)
    })))
})

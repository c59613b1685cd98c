// A long poll's look keeps a little room for jobs pushed while its lease statement runs (services/work/LongPollListeners.ts,
// roomKeptForPushes; services/work/JobActivation.ts asks the statement for the rest): the pushed and the leased together
// stay within the activation's maxJobsToActivate. A small activation keeps none, nor a look after one that found a
// backlog. Once the look is over, nothing more is pushed to it.
import { Effect, type Scope } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import type { JobLeasesShape, LeaseRequest } from "../../src/persistence/jobs/JobLeases.ts"
import { makeJobActivation } from "../../src/services/work/JobActivation.ts"
import { inProcess } from "../../src/services/work/JobAvailability.ts"
import type { JobTaker } from "../../src/services/work/JobTaker.ts"
import { roomKeptForPushes } from "../../src/services/work/LongPollListeners.ts"
import { makeVariablesNow } from "../../src/services/work/VariablesNow.ts"

const TENANT = "tenant-a"
const taker = { worker: "poll", lockMillis: 60_000, audit: undefined }

const leasedRow = (id: string) => ({
  id,
  type: "work",
  state: "ACTIVATED",
  instance_id: "instance",
  node_id: "task",
  element_instance_id: "token",
  retries: 3,
  worker: "poll",
  deadline: "2026-01-01T00:01:00.000Z",
  custom_headers: {},
  variables: {},
  error_message: null,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  previous_state: "ACTIVATABLE",
  previous_worker: null,
  instance_deployment_id: null,
  instance_engine_state: null
})

const run = <A>(effect: Effect.Effect<A, never, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(effect.pipe(Effect.provide(TestClock.layer()))))

/** A look whose lease statement finds no job; while it runs, `tries` jobs are created and offered to waiting takers. */
const lookWhileJobsAreCreated = (maxJobsToActivate: number, tries: number, availability = inProcess()) =>
  Effect.gen(function*() {
    const asked: Array<number> = []
    const duringStatement: Array<JobTaker | undefined> = []
    const leases: JobLeasesShape = {
      release: () => Effect.void,
      leaseNext: (request: LeaseRequest) =>
        Effect.sync(() => {
          asked.push(request.limit)
          for (let i = 0; i < tries; i++) duringStatement.push(availability.reserve(TENANT, "work"))
          return []
        })
    }
    // the look's statement finds nothing: no SQL and no job entity are reached
    const { activateNow } = makeJobActivation(undefined as never, leases, makeVariablesNow(undefined as never))
    const listener = yield* availability.listen(TENANT, "work", taker, maxJobsToActivate)
    const { jobs: found } = yield* activateNow(
      TENANT,
      { type: "work", worker: "poll", maxJobsToActivate },
      listener.budget
    )
    const afterLook = availability.reserve(TENANT, "work")
    return { asked, pushed: duringStatement.filter((one) => one !== undefined).length, found, afterLook, listener }
  })

describe("a look's room for pushed jobs", () => {
  it("keeps a quarter of what it may take, at most 4, none below 4", () => {
    expect([1, 3, 4, 7, 8, 15, 16, 32, 1000].map(roomKeptForPushes)).toEqual([0, 0, 1, 1, 2, 3, 4, 4, 4])
  })

  it("asks its statement for the rest, and takes pushed jobs only within the room it kept", () =>
    run(Effect.gen(function*() {
      const { afterLook, asked, found, pushed } = yield* lookWhileJobsAreCreated(32, 6)
      expect(asked).toEqual([28])
      expect(pushed).toBe(4)
      expect(found).toEqual([])
      // the look is over: the next job goes to someone else (or is announced)
      expect(afterLook).toBeUndefined()
    })))

  it("an activation of fewer than 4 jobs keeps no room: its statement is asked for all", () =>
    run(Effect.gen(function*() {
      const { asked, pushed } = yield* lookWhileJobsAreCreated(3, 2)
      expect(asked).toEqual([3])
      expect(pushed).toBe(0)
    })))

  it("after a look of the type found as many jobs as it asked for (a backlog), the next look keeps no room", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const earlier = yield* availability.listen(TENANT, "work", taker, 32)
      yield* earlier.looked(false)
      const { asked, pushed } = yield* lookWhileJobsAreCreated(32, 2, availability)
      expect(asked).toEqual([32])
      expect(pushed).toBe(0)
      // a look that found every job there was: the next one keeps its room again
      yield* earlier.looked(true)
      expect((yield* lookWhileJobsAreCreated(32, 2, availability)).asked).toEqual([28])
    })))

  it("a statement that found as many as it was asked for is followed by one asking for the room no push took", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const asked: Array<number> = []
      let waiting = 40
      const leases: JobLeasesShape = {
        release: () => Effect.void,
        leaseNext: (request: LeaseRequest) =>
          Effect.sync(() => {
            asked.push(request.limit)
            // one job is created while the first statement runs: it is pushed into the room kept
            if (asked.length === 1) availability.reserve(TENANT, "work")?.deliver({ id: "pushed" } as never)
            const found = Math.min(waiting, request.limit)
            waiting -= found
            return Array.from({ length: found }, (_, i) => leasedRow(`${asked.length}-${i}`))
          })
      }
      // the instances' rows are read for the jobs' variables: none here
      const noRows = (() => Effect.succeed([])) as never
      const { activateNow } = makeJobActivation(undefined as never, leases, makeVariablesNow(noRows))
      const listener = yield* availability.listen(TENANT, "work", taker, 32)
      const look = yield* activateNow(TENANT, { type: "work", worker: "poll", maxJobsToActivate: 32 }, listener.budget)
      // 28 asked and found, 1 pushed meanwhile, then the 3 left asked for and found: 32 in all, the backlog noted
      expect(asked).toEqual([28, 3])
      expect(look.jobs).toHaveLength(31)
      expect(look.exhausted).toBe(false)
      expect(yield* listener.collect).toEqual([{ id: "pushed" }])
    })))

  it("the jobs pushed while it looked are its answer once their commits ended", () =>
    run(Effect.gen(function*() {
      const availability = inProcess()
      const reserved: Array<JobTaker> = []
      const leases: JobLeasesShape = {
        release: () => Effect.void,
        leaseNext: () =>
          Effect.sync(() => {
            const one = availability.reserve(TENANT, "work")
            if (one !== undefined) reserved.push(one)
            return []
          })
      }
      const { activateNow } = makeJobActivation(undefined as never, leases, makeVariablesNow(undefined as never))
      const listener = yield* availability.listen(TENANT, "work", taker, 8)
      const look = yield* activateNow(TENANT, { type: "work", worker: "poll", maxJobsToActivate: 8 }, listener.budget)
      expect(look).toEqual({ jobs: [], exhausted: true })
      expect(listener.budget.handed()).toBe(1)
      reserved[0]!.deliver({ id: "pushed" } as never)
      expect(yield* listener.wait(1000)).toEqual([{ id: "pushed" }])
    })))
})

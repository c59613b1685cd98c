// A command that meets a defect inside the instance entity (here: the database refuses the commit, as it would a value
// it cannot store) answers the caller with a 500 naming the correlation id — at once, not after the caller gave up —
// is not replayed, and leaves the instance as it was: the next command works. So does a message that meets one inside
// a job's entity, and a batch item whose command meets one fails alone instead of holding its batch for ever.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { beforeAll, describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { BatchRunner } from "../../src/cluster/BatchRunner.ts"
import { givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

const oneTask = {
  id: "defects",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "defects-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

const runSql = async <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  (await testApp()).runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))

const attempts = async (sequence = "poison_attempts") => {
  const [row] = await runSql((sql) =>
    sql<{ last_value: string; is_called: boolean }>`SELECT last_value, is_called FROM ${sql(sequence)}`
  )
  return row!.is_called ? Number(row!.last_value) : 0
}

/** The retries the test trigger refuses to write to a job's row (within what the API accepts). */
const POISON_RETRIES = 4242

beforeAll(async () => {
  // Refuses any instance update that carries the variable `poisonPill`, counting each attempt in a sequence (sequences
  // are not rolled back with the transaction that advanced them).
  await runSql((sql) =>
    Effect.gen(function*() {
      yield* sql`CREATE SEQUENCE IF NOT EXISTS poison_attempts`
      yield* sql.unsafe(`CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger AS $$
        BEGIN
          IF NEW.variables ? 'poisonPill' THEN
            PERFORM nextval('poison_attempts');
            RAISE EXCEPTION 'refused by the test trigger';
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`)
      yield* sql`DROP TRIGGER IF EXISTS refuse_poison ON process_instances`
      yield* sql`CREATE TRIGGER refuse_poison BEFORE UPDATE ON process_instances FOR EACH ROW EXECUTE FUNCTION refuse_poison()`
      // The same for a job row given POISON_RETRIES: the instance's commit that carries it fails.
      yield* sql`CREATE SEQUENCE IF NOT EXISTS poison_job_attempts`
      yield* sql.unsafe(`CREATE OR REPLACE FUNCTION refuse_poison_retries() RETURNS trigger AS $$
        BEGIN
          IF NEW.retries = ${POISON_RETRIES} THEN
            PERFORM nextval('poison_job_attempts');
            RAISE EXCEPTION 'refused by the test trigger';
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`)
      yield* sql`DROP TRIGGER IF EXISTS refuse_poison_retries ON jobs`
      yield* sql`CREATE TRIGGER refuse_poison_retries BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION refuse_poison_retries()`
    })
  )
})

describe("defects inside the instance entity", () => {
  it("answer 500 once, are not redelivered, and leave the instance consistent", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    const instance = await owner.start(deployment.id, { amount: 1 })
    const before = await attempts()

    const poisoned = await owner.put(`/process-instances/${instance.id}/variables`, { variables: { poisonPill: true } })
    const failure = poisoned.fails(500, "INTERNAL_ERROR")
    expect(failure.message).not.toMatch(/trigger|refused/) // the instance is as it was, and takes the next command
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { amount: 2 } })).ok()
    expect((await owner.instance(instance.id)).variables).toEqual({ amount: 2 })
    const [job] = await owner.activateJobs("defects-work")
    await owner.completeJob(job.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    // the poisoned command was tried exactly once
    expect(await attempts()).toBe(before + 1)
  })

  it("fail only their own command when committed together with others (group commit)", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    const instances = await Promise.all(Array.from({ length: 12 }, (_, i) => owner.start(deployment.id, { n: i })))
    // Concurrent commands on many instances share commits; the one the database refuses must not take the others down.
    const replies = await Promise.all(
      instances.map((instance, i) =>
        owner.put(`/process-instances/${instance.id}/variables`, {
          variables: i === 5 ? { poisonPill: true } : { n: i + 100 }
        })
      )
    )
    replies.forEach((reply, i) => (i === 5 ? reply.fails(500, "INTERNAL_ERROR") : reply.ok()))
    const after = await Promise.all(instances.map((instance) => owner.instance(instance.id)))
    after.forEach((instance, i) => expect(instance.variables).toEqual({ n: i === 5 ? 5 : i + 100 }))
  })
})

describe("defects inside the job entity", () => {
  it("answer 500 once, are not handed to the entity again, and leave the job usable", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({ ...oneTask, id: "job-defects" })
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("defects-work")
    const before = await attempts("poison_job_attempts")
    ;(await owner.post(`/jobs/${job.id}/retries`, { retries: POISON_RETRIES })).fails(500, "INTERNAL_ERROR")
    // no redelivery after the answer: the entity was not restarted with the message
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await attempts("poison_job_attempts")).toBe(before + 1)
    expect((await owner.post(`/jobs/${job.id}/retries`, { retries: 5 })).ok().retries).toBe(5)
    await owner.completeJob(job.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  }, 20_000)

  it("fail their batch item, which holds neither its batch nor the later ones", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy({ ...oneTask, id: "batch-defects" })
    const instances = [await owner.start(deployment.id), await owner.start(deployment.id)]
    const jobs = await owner.activateJobs("defects-work", { maxJobsToActivate: 10 })
    const [poisoned, fine] = instances.map((instance) => jobs.find((j: any) => j.processInstanceId === instance.id).id)
    const flush = () => tenant.app.runtime.runPromise(BatchRunner.use((runner) => runner.flush))

    const first = (await owner.post("/batch-operations", {
      type: "RETRY",
      targetIds: [poisoned, fine],
      retries: POISON_RETRIES
    })).ok(202)
    const later = (await owner.post("/batch-operations", { type: "RETRY", targetIds: [fine], retries: 7 })).ok(202)
    await flush()
    const batch = (await owner.get(`/batch-operations/${first.id}`)).ok()
    expect(batch).toMatchObject({ state: "COMPLETED", pending: 0, failed: 2 })
    expect(batch.items[0]).toMatchObject({ state: "FAILED", message: expect.stringContaining("internal error") })
    expect((await owner.get(`/batch-operations/${later.id}`)).ok()).toMatchObject({ state: "COMPLETED", succeeded: 1 })
    expect((await owner.get(`/jobs/${fine}/retry`)).ok().retries).toBe(7)
  }, 20_000)
})

/** A timer of a minute, then a service task: its firing updates the instance row. */
const timerThenWork = {
  id: "defects-timer",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "wait", type: "intermediateCatchEvent", properties: { timeDuration: "PT1M" } },
    { id: "work", type: "serviceTask", properties: { taskType: "defects-timer-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "start", target: "wait" },
    { id: "f2", source: "wait", target: "work" },
    { id: "f3", source: "work", target: "end" }
  ]
}

describe("defects met by background work", () => {
  it("a timer whose firing meets one is tried again after a growing delay, and holds no other timer", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(timerThenWork)
    // the instance row is inserted with the pill; every update of it (the timer's firing) is refused
    const poisoned = await owner.start(deployment.id, { poisonPill: true })
    const fine = await owner.start(deployment.id)
    const fireDue = () => tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    const before = await attempts()
    tenant.app.clock.advance("2 minutes")
    await fireDue()
    expect(await attempts()).toBeGreaterThan(before)
    // tried again after 1 s, 2 s, 4 s, ...: not at every round (20 rounds here take well under the 7 s that would
    // allow a fourth try)
    for (let round = 0; round < 20; round++) await fireDue()
    expect(await attempts()).toBeLessThanOrEqual(before + 4)
    // the other timer fired; the poisoned one is still due, and fires once the instance can be updated
    const later = await tenant.owner()
    expect((await later.get(`/jobs?processInstanceId=${fine.id}`)).ok().items).toHaveLength(1)
    expect((await later.get(`/process-instances/${poisoned.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      kind: "TIMER",
      nodeId: "wait"
    })
  }, 20_000)
})

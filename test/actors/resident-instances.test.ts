// ResidentInstances (src/cluster/ResidentInstances.ts): on the node that owns an instance's shard, its commands run on
// the copy in this node's memory, one at a time, without a message through the cluster's entity machinery; commands
// that do arrive through the entity run on the same copy; idle copies leave memory; a copy another writer overtook
// reloads and applies the command.
import { Effect } from "effect"
import { Sharding } from "effect/cluster"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ProcessInstance } from "../../src/cluster/ProcessInstance.ts"
import { ResidentInstances } from "../../src/cluster/ResidentInstances.ts"
import { InstanceStore } from "../../src/persistence/instances/InstanceStore.ts"
import { type Caller, fixture, Tenant } from "../support/Scenario.ts"
import { bootApp, type TestApp } from "../support/TestApp.ts"

describe("resident instances", () => {
  let app: TestApp
  let tenant: Tenant
  let owner: Caller
  let deploymentId: string
  const run = <A>(effect: Effect.Effect<A, unknown, any>): Promise<A> => app.runtime.runPromise(effect)
  const residents = () =>
    run(Effect.gen(function*() {
      return (yield* ResidentInstances).count()
    }))
  const clusterEntities = () =>
    run(Effect.gen(function*() {
      return yield* (yield* Sharding.Sharding).activeEntityCount
    }))

  beforeAll(async () => {
    // An app of its own (the clock is moved below), on the embedded database.
    app = await bootApp({ databaseUrl: undefined, entityIdleSeconds: 5 })
    tenant = new Tenant(app, randomUUID())
    owner = await tenant.owner("resident-tester")
    deploymentId = (await owner.deploy(fixture("service-task.bpmn"))).id
  })
  afterAll(async () => {
    await app?.runtime.dispose()
  })

  it("runs the owning node's commands on its copy in memory, not through the cluster's entities", async () => {
    const before = await residents()
    const started = await Promise.all(Array.from({ length: 5 }, () => owner.start(deploymentId)))
    expect(await residents()).toBe(before + 5)
    expect(await clusterEntities()).toBe(0)
    // The health endpoint counts them among the node's entities.
    const health = (await owner.get("/health")).ok()
    expect(health.cluster.activeEntities).toBe(before + 5)
    const suspended = await owner.post(`/process-instances/${started[0]!.id}/suspend`)
    expect(suspended.status).toBe(200)
    expect(await clusterEntities()).toBe(0)
  })

  it("applies commands from the entity and from this node to one copy, one at a time", async () => {
    const instance = await owner.start(deploymentId)
    const viaEntity = (i: number) => {
      const command = { type: i % 2 === 0 ? "SuspendInstance" as const : "ResumeInstance" as const }
      const send = Effect.flatMap(
        ProcessInstance.client,
        (client) =>
          client(instance.id).Execute({
            commandId: `toggle-${i}`,
            tenantId: tenant.id,
            actor: "resident-tester",
            command
          })
      )
      return run(send).then(() => 200, () => 409)
    }
    const viaHttp = async (i: number) =>
      (await owner.post(`/process-instances/${instance.id}/${i % 2 === 0 ? "suspend" : "resume"}`)).status
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 4 < 2 ? viaEntity(i) : viaHttp(i))))
    const applied = statuses.filter((status) => status === 200).length
    const toggles = (await owner.history(instance.id))
      .filter((event: { type: string }) => /Suspended|Resumed/.test(event.type))
      .map((event: { type: string }) => event.type)
    expect(toggles.length).toBe(applied)
    // Strictly alternating: two writers interleaving would suspend (or resume) twice in a row.
    for (let i = 1; i < toggles.length; i++) expect(toggles[i]).not.toBe(toggles[i - 1])
  })

  it("a copy another writer overtook reloads from the rows and applies the command", async () => {
    const instance = await owner.start(deploymentId)
    // Another writer (a node that owned the shard meanwhile) committed: the copy here is one event behind.
    await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE process_instances SET last_event_seq = last_event_seq + 1 WHERE id = ${instance.id}`
    }))
    const suspended = await owner.post(`/process-instances/${instance.id}/suspend`)
    expect(suspended.status).toBe(200)
    expect((await owner.instance(instance.id)).state).toBe("SUSPENDED")
  })

  it("an idle copy leaves memory, and the instance's next command loads it again", async () => {
    const instance = await owner.start(deploymentId)
    expect(await residents()).toBeGreaterThan(0)
    app.clock.advance("6 seconds")
    await expect.poll(residents, { timeout: 10_000 }).toBe(0)
    const suspended = await owner.post(`/process-instances/${instance.id}/suspend`)
    expect(suspended.status).toBe(200)
    expect(await residents()).toBe(1)
    const resumed = await owner.post(`/process-instances/${instance.id}/resume`)
    expect(resumed.status).toBe(200)
    const toggles = (await owner.history(instance.id))
      .map((event: { type: string }) => event.type)
      .filter((type) => /Suspended|Resumed/.test(type))
    expect(toggles).toHaveLength(2)
    expect(toggles[0]).toMatch(/Suspended/)
    expect(toggles[1]).toMatch(/Resumed/)
  })

  it("an instance that ends leaves memory with the command that ended it; a later command reads its rows", async () => {
    const taskType = `ending-${randomUUID()}`
    const ending = (await owner.deploy({
      id: "ending",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "work", type: "serviceTask", properties: { taskType } },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
    })).id
    const before = await residents()
    const completed = await owner.start(ending)
    expect(await residents()).toBe(before + 1)
    const [job] = await owner.activateJobs(taskType, { maxJobsToActivate: 1 })
    expect(job.processInstanceId).toBe(completed.id)
    await owner.completeJob(job.id)
    expect((await owner.instance(completed.id)).state).toBe("COMPLETED")
    expect(await residents()).toBe(before)
    const cancelled = await owner.start(ending)
    expect(await residents()).toBe(before + 1)
    expect((await owner.post(`/process-instances/${cancelled.id}/cancel`)).status).toBe(200)
    expect(await residents()).toBe(before)
    // Loaded again from its rows, the ended instance refuses the command as before.
    expect((await owner.post(`/process-instances/${cancelled.id}/suspend`)).status).toBe(409)
  })

  it("instances loaded at about the same time are read together, each from its own row", async () => {
    const waiting = (await owner.deploy(fixture("message-wait.bpmn"))).id
    const keys = Array.from({ length: 12 }, (_, i) => `batch-${i}`)
    const started = await Promise.all(keys.map((orderId) => owner.start(waiting, { orderId })))
    app.clock.advance("6 seconds")
    await expect.poll(residents, { timeout: 10_000 }).toBe(0)
    const published = await Promise.all(
      keys.map(async (correlationKey, i) =>
        (await owner.post("/messages", { messageName: "payment-received", correlationKey, variables: { paid: i } }))
          .ok(202)
      )
    )
    published.forEach((result, i) => expect(result.instanceIds).toEqual([started[i].id]))
    const instances = await Promise.all(started.map((instance: { id: string }) => owner.instance(instance.id)))
    instances.forEach((instance, i) => expect(instance.variables).toMatchObject({ orderId: keys[i], paid: i }))
    // In one batch with rows that exist: an id of no instance, and text that is no uuid, are read as absent.
    const loaded = await run(Effect.gen(function*() {
      const store = yield* InstanceStore
      return yield* Effect.all(
        [store.load(randomUUID()), store.load("not-a-uuid"), store.load(started[0].id.toUpperCase())],
        { concurrency: "unbounded" }
      )
    }))
    expect(loaded[0]).toBeUndefined()
    expect(loaded[1]).toBeUndefined()
    expect(loaded[2]).toMatchObject({ id: started[0].id, processKey: expect.any(String) })
  })
})

// POST /messages: resumes every instance waiting with a matching (name, correlation key), starts instances at message
// start events of latest, active versions; zero matches is 202 with zero counts; tenants never see each other's.
import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

const messageStart = (key: string, messageName: string) => ({
  id: key,
  nodes: [
    { id: "ms", type: "startEvent", properties: { messageName } },
    { id: "handle", type: "serviceTask", properties: { taskType: `${key}-work` } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "ms", target: "handle" }, { id: "f2", source: "handle", target: "end" }]
})

describe("messages", () => {
  it("correlates to the instance whose subscription matches the key, and only that one", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const a = await owner.start(deployment.id, { orderId: "A" })
    const b = await owner.start(deployment.id, { orderId: "B" })
    const result =
      (await owner.post("/messages", { messageName: "payment-received", correlationKey: "A", variables: { paid: 10 } }))
        .ok(202)
    expect(result).toEqual({ correlatedCount: 1, heldCount: 0, startedCount: 0, instanceIds: [a.id], buffered: false })
    expect((await owner.instance(a.id)).variables).toMatchObject({ paid: 10 })
    expect((await owner.get(`/process-instances/${a.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      name: "order-confirmed",
      correlationKey: "C-A"
    })
    expect((await owner.get(`/process-instances/${b.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      name: "payment-received",
      correlationKey: "B"
    })
    // the same message again finds nothing waiting: zero matches is a success
    expect((await owner.post("/messages", { messageName: "payment-received", correlationKey: "A" })).ok(202))
      .toEqual({ correlatedCount: 0, heldCount: 0, startedCount: 0, instanceIds: [], buffered: false })
    ;(await owner.post("/messages", { messageName: "order-confirmed", correlationKey: "C-A" })).ok(202)
    expect((await owner.instance(a.id)).state).toBe("COMPLETED")
  })

  it("starts an instance at the message start event of the latest active version, with the message's variables", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = await owner.deploy(messageStart("intake", "order-placed"))
    const started = (await owner.post("/messages", { messageName: "order-placed", variables: { orderId: "X-1" } })).ok(
      202
    )
    expect(started).toMatchObject({ correlatedCount: 0, startedCount: 1 })
    const instance = await owner.instance(started.instanceIds[0])
    expect(instance).toMatchObject({ deploymentId: v1.id, variables: { orderId: "X-1" }, state: "ACTIVE" })
    expect(await owner.activateJobs("intake-work")).toHaveLength(1)

    const v2 = await owner.deploy(messageStart("intake", "order-placed"))
    const second = (await owner.post("/messages", { messageName: "order-placed" })).ok(202)
    expect((await owner.instance(second.instanceIds[0])).deploymentId).toBe(v2.id)

    await owner.post(`/deployments/${v2.id}/suspend`)
    expect((await owner.post("/messages", { messageName: "order-placed" })).ok(202).startedCount).toBe(0)
    // a process that starts only by message cannot be started directly
    await owner.post(`/deployments/${v2.id}/resume`)
    ;(await owner.post("/process-instances", { deploymentId: v2.id })).fails(409, "CONFLICT")
  })

  it("never crosses tenants, needs PROCESS_OWNER, and validates its body", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const waiting = await owner.start(deployment.id, { orderId: "T" })
    const stranger = await (await givenTenant()).owner()
    expect(
      (await stranger.post("/messages", { messageName: "payment-received", correlationKey: "T" })).ok(202)
        .correlatedCount
    ).toBe(0)
    expect((await owner.get(`/process-instances/${waiting.id}/event-subscriptions`)).ok()).toHaveLength(1)
    ;(await (await tenant.taskUser()).post("/messages", { messageName: "payment-received", correlationKey: "T" }))
      .fails(403, "FORBIDDEN")
    const bad = (await owner.post("/messages", { correlationKey: "T" })).fails(400, "VALIDATION_ERROR")
    expect(bad.errors[0].field).toBe("messageName")
  })

  it("answers each of many publishes sent at once with its own targets: key, name and tenant apart", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const waits = await owner.deploy(fixture("message-wait.bpmn"))
    await owner.deploy(messageStart("intake-many", "order-placed"))
    const strangerWaits = await stranger.deploy(fixture("message-wait.bpmn"))
    const keys = Array.from({ length: 24 }, (_, i) => `K-${i}`)
    const waiting = await Promise.all(keys.map((orderId) => owner.start(waits.id, { orderId })))
    const strangers = await Promise.all(
      keys.slice(0, 4).map((orderId) => stranger.start(strangerWaits.id, { orderId }))
    )
    // Sent together, they are looked up together: each answer must still be only its own.
    const answers = await Promise.all([
      ...keys.map((correlationKey) => owner.post("/messages", { messageName: "payment-received", correlationKey })),
      owner.post("/messages", { messageName: "order-placed" }),
      owner.post("/messages", { messageName: "payment-received", correlationKey: "nobody" })
    ])
    keys.forEach((_, i) => {
      expect(answers[i]!.ok(202)).toEqual({
        correlatedCount: 1,
        heldCount: 0,
        startedCount: 0,
        instanceIds: [waiting[i]!.id],
        buffered: false
      })
    })
    expect(answers[keys.length]!.ok(202)).toMatchObject({ correlatedCount: 0, startedCount: 1 })
    expect(answers[keys.length + 1]!.ok(202)).toMatchObject({ correlatedCount: 0, startedCount: 0 })
    for (const instance of strangers) {
      expect((await stranger.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()[0]).toMatchObject({
        name: "payment-received"
      })
    }
  })

  it("matches names and keys holding quotes, backslashes, braces and commas exactly, and nothing else", async () => {
    const owner = await (await givenTenant()).owner()
    const name = "pay \"A\", {b} \\ c"
    await owner.deploy(messageStart("odd-names", name))
    const waits = await owner.deploy({
      id: "odd-wait",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "wait", type: "intermediateCatchEvent", properties: { messageName: name, correlationKey: "= key" } },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "wait" }, { id: "f2", source: "wait", target: "end" }]
    })
    const key = "{\"k\": 1}, \\"
    const waiting = await owner.start(waits.id, { key })
    const [near, exact] = await Promise.all([
      owner.post("/messages", { messageName: name, correlationKey: `${key} ` }),
      owner.post("/messages", { messageName: name, correlationKey: key })
    ])
    expect(near.ok(202)).toMatchObject({ correlatedCount: 0, startedCount: 1 })
    const answered = exact.ok(202)
    expect(answered).toMatchObject({ correlatedCount: 1, startedCount: 1 })
    expect(answered.instanceIds[0]).toBe(waiting.id)
  })

  it("keeps a message nothing awaits for its time to live: the first instance that starts waiting takes it", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const early = (await owner.post("/messages", {
      messageName: "payment-received",
      correlationKey: "E",
      timeToLive: 60_000,
      variables: { early: true }
    })).ok(202)
    expect(early).toEqual({ correlatedCount: 0, heldCount: 0, startedCount: 0, instanceIds: [], buffered: true })
    const first = await owner.start(deployment.id, { orderId: "E" })
    await eventually(async () =>
      expect((await owner.get(`/process-instances/${first.id}/event-subscriptions`)).ok()[0].name).toBe(
        "order-confirmed"
      )
    )
    expect((await owner.instance(first.id)).variables).toMatchObject({ early: true })
    const second = await owner.start(deployment.id, { orderId: "E" })
    expect((await owner.get(`/process-instances/${second.id}/event-subscriptions`)).ok()[0].name).toBe(
      "payment-received"
    )
  })

  it("forgets a buffered message once its time to live has passed (ISO 8601 durations accepted)", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    expect(
      (await owner.post("/messages", { messageName: "payment-received", correlationKey: "L", timeToLive: "PT1M" })).ok(
        202
      ).buffered
    ).toBe(true)
    tenant.app.clock.advance("61 seconds")
    const late = await owner.start(deployment.id, { orderId: "L" })
    await tenant.app.runtime.runPromise(
      (await import("../../src/actors/OutboxRelay.ts")).OutboxRelay.use((relay) => relay.flush)
    )
    expect((await owner.get(`/process-instances/${late.id}/event-subscriptions`)).ok()[0].name).toBe("payment-received")
    ;(await owner.post("/messages", { messageName: "x", timeToLive: "soon" })).fails(400, "VALIDATION_ERROR")
  })

  it("refuses a second publish with the same messageId, buffered or already correlated", async () => {
    const owner = await (await givenTenant()).owner()
    ;(await owner.post("/messages", { messageName: "once", correlationKey: "1", messageId: "m-1", timeToLive: 60_000 }))
      .ok(202)
    const again = (await owner.post("/messages", {
      messageName: "once",
      correlationKey: "1",
      messageId: "m-1",
      timeToLive: 60_000
    })).fails(409, "CONFLICT")
    expect(again.message).toMatch(/m-1/) // without a TTL the id is remembered for the retention all the same: the second publish is refused
    ;(await owner.post("/messages", { messageName: "once", messageId: "m-2" })).ok(202)
    ;(await owner.post("/messages", { messageName: "once", messageId: "m-2" })).fails(409, "CONFLICT")
  })
})

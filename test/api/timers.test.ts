// Timers: a duration counted from the token's arrival (or a date), durable as a subscription row, fired once by the
// poller when the (test-controlled) clock passes it; held while the instance or its deployment is suspended.
import { describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { givenTenant, type Tenant } from "../support/Scenario.ts"

const waitThenWork = (timer: Record<string, string>) => ({
  id: "waits",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "wait", type: "intermediateCatchEvent", properties: timer },
    { id: "work", type: "serviceTask", properties: { taskType: "after-timer" } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "work" }, {
    id: "f3",
    source: "work",
    target: "e"
  }]
})

const fireDue = (tenant: Tenant) => tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))

describe("timers", () => {
  it("fires a duration timer once the clock passes it, and not before", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(waitThenWork({ timeDuration: "PT1H" }))
    const instance = await owner.start(deployment.id)
    const [timer] = (await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()
    expect(timer).toMatchObject({ kind: "TIMER", nodeId: "wait" })
    const dueIn = Date.parse(timer.dueAt) - tenant.app.clock.nowMillis()
    expect(dueIn).toBeGreaterThan(59 * 60_000)
    expect(dueIn).toBeLessThanOrEqual(3_600_000)
    await fireDue(tenant)
    expect(await owner.activateJobs("after-timer")).toEqual([])
    tenant.app.clock.advance("61 minutes")
    await fireDue(tenant)
    const later = await tenant.owner() // a token minted after the clock moved
    expect(await later.activateJobs("after-timer")).toHaveLength(1)
    expect((await later.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    const fired = (await later.history(instance.id)).filter((e: { type: string }) => e.type === "TimerFired")
    expect(fired).toHaveLength(1)
    expect(fired[0].sub).toBe("system:timer")
  })

  it("accepts a FEEL duration, and holds a due timer while the deployment is suspended", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(waitThenWork({ timeDuration: "= \"PT\" + string(minutes) + \"M\"" }))
    const instance = await owner.start(deployment.id, { minutes: 5 })
    await owner.post(`/deployments/${deployment.id}/suspend`)
    tenant.app.clock.advance("6 minutes")
    await fireDue(tenant)
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toHaveLength(1)
    ;(await owner.post(`/deployments/${deployment.id}/resume`)).ok()
    await fireDue(tenant)
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
  })

  it("refuses a timer cycle on an intermediate catch event (it would never repeat) and a malformed duration", async () => {
    const owner = await (await givenTenant()).owner()
    const cycle = (await owner.post("/deployments", waitThenWork({ timeCycle: "R3/PT1M" }))).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(cycle.errors[0]).toMatchObject({ field: "wait" })
    expect(cycle.message).toMatch(/timer cycle \(timeCycle\) repeats/)
    ;(await owner.post("/deployments", waitThenWork({ timeDuration: "one hour" }))).fails(400, "VALIDATION_ERROR")
  })
})

describe("timer start events", () => {
  const scheduled = (duration: string) => ({
    id: "nightly",
    nodes: [{ id: "tick", type: "startEvent", properties: { timeDuration: duration } }, {
      id: "work",
      type: "serviceTask",
      properties: { taskType: "nightly-work" }
    }, { id: "e", type: "endEvent" }],
    flows: [{ id: "f1", source: "tick", target: "work" }, { id: "f2", source: "work", target: "e" }]
  })

  it("starts one instance when due (counted from the deployment), held while suspended, replaced by a new version", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const v1 = await owner.deploy(scheduled("PT10M"))
    await fireDue(tenant)
    expect((await owner.get("/process-instances?processKey=nightly")).ok().totalItems).toBe(0)
    const v2 = await owner.deploy(scheduled("PT20M"))
    tenant.app.clock.advance("11 minutes")
    await fireDue(tenant)
    const after11 = await tenant.owner()
    expect((await after11.get("/process-instances?processKey=nightly")).ok().totalItems).toBe(0) // v1's timer was replaced
    await after11.post(`/deployments/${v2.id}/suspend`)
    tenant.app.clock.advance("10 minutes")
    await fireDue(tenant)
    const after21 = await tenant.owner()
    expect((await after21.get("/process-instances?processKey=nightly")).ok().totalItems).toBe(0)
    await after21.post(`/deployments/${v2.id}/resume`)
    await fireDue(tenant)
    await fireDue(tenant)
    const started = (await after21.get("/process-instances?processKey=nightly")).ok().items
    expect(started).toHaveLength(1)
    expect(started[0]).toMatchObject({ deploymentId: v2.id, startedBy: "system:timer" })
    expect(v1.version).toBe(1)
  })

  it("a timer cycle starts an instance at each occurrence, R<n> times; missed occurrences collapse into one", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const cycled = { ...scheduled("PT1M"), id: "cycled" }
    const tick = cycled.nodes[0] as { properties: Record<string, string> }
    cycled.nodes[0] = { ...tick, properties: { timeCycle: "R3/PT10M" } } as typeof cycled.nodes[0]
    await owner.deploy(cycled)
    const count = async () => (await (await tenant.owner()).get("/process-instances?processKey=cycled")).ok().totalItems
    for (const expected of [1, 2, 3, 3]) {
      tenant.app.clock.advance("10 minutes")
      await fireDue(tenant)
      expect(await count()).toBe(expected)
    }
    // for ever, every 10 minutes: two hours of downtime give one instance, not twelve
    const forever = { ...cycled, id: "forever" }
    forever.nodes[0] = { ...tick, properties: { timeCycle: "R/PT10M" } } as typeof cycled.nodes[0]
    await (await tenant.owner()).deploy(forever)
    tenant.app.clock.advance("2 hours")
    await fireDue(tenant)
    await fireDue(tenant)
    expect((await (await tenant.owner()).get("/process-instances?processKey=forever")).ok().totalItems).toBe(1)
    tenant.app.clock.advance("10 minutes")
    await fireDue(tenant)
    expect((await (await tenant.owner()).get("/process-instances?processKey=forever")).ok().totalItems).toBe(2)
  })
})

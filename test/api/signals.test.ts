// POST /signals: a broadcast resumes every waiting instance of the tenant and starts processes at signal start events.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const catcher = {
  id: "waits-for-go",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "go", type: "intermediateCatchEvent", properties: { signalName: "go" } },
    { id: "t", type: "serviceTask", properties: { taskType: "after-go" } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "go" }, { id: "f2", source: "go", target: "t" }, {
    id: "f3",
    source: "t",
    target: "e"
  }]
}

const starter = {
  id: "starts-on-go",
  nodes: [{ id: "ss", type: "startEvent", properties: { signalName: "go" } }, { id: "e", type: "endEvent" }],
  flows: [{ id: "f1", source: "ss", target: "e" }]
}

describe("signals", () => {
  it("resumes every waiting instance and starts every listening process", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const waiting = await owner.deploy(catcher)
    await owner.deploy(starter)
    const a = await owner.start(waiting.id)
    const b = await owner.start(waiting.id)
    expect((await owner.get(`/process-instances/${a.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      kind: "SIGNAL",
      name: "go",
      correlationKey: null
    })
    expect((await owner.get(`/process-instances/${a.id}/tokens`)).ok()[0]).toMatchObject({ waitingFor: "SIGNAL" })
    const result = (await owner.post("/signals", { signalName: "go", variables: { wave: 1 } })).ok(202)
    expect(result.correlatedCount).toBe(2)
    expect(result.startedCount).toBe(1)
    expect(result.instanceIds.slice(0, 2).sort()).toEqual([a.id, b.id].sort())
    expect((await owner.instance(a.id)).variables).toEqual({ wave: 1 })
    expect(await owner.activateJobs("after-go")).toHaveLength(2)
    expect((await owner.instance(result.instanceIds[2])).state).toBe("COMPLETED")
    expect((await owner.post("/signals", { signalName: "nobody-listens" })).ok(202)).toEqual({
      correlatedCount: 0,
      startedCount: 0,
      instanceIds: []
    })
    // other tenants are not reached
    const stranger = await (await givenTenant()).owner()
    const c = await owner.start(waiting.id)
    expect((await stranger.post("/signals", { signalName: "go" })).ok(202).correlatedCount).toBe(0)
    expect((await owner.get(`/process-instances/${c.id}/event-subscriptions`)).ok()).toHaveLength(1)
  })
})

describe("conditional start events", () => {
  it("starts every latest active process whose condition holds for the variables", async () => {
    const owner = await (await givenTenant()).owner()
    const big = await owner.deploy({
      id: "big-orders",
      nodes: [{ id: "cs", type: "startEvent", properties: { condition: "= amount > 1000" } }, {
        id: "t",
        type: "serviceTask",
        properties: { taskType: "big" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "cs", target: "t" }, { id: "f2", source: "t", target: "e" }]
    })
    await owner.deploy({
      id: "vip-orders",
      nodes: [{ id: "cs", type: "startEvent", properties: { condition: "= vip = true" } }, {
        id: "e",
        type: "endEvent"
      }],
      flows: [{ id: "f1", source: "cs", target: "e" }]
    })
    const result = (await owner.post("/conditional-start-events/evaluate", { variables: { amount: 5000, vip: false } }))
      .ok(202)
    expect(result).toMatchObject({ correlatedCount: 0, startedCount: 1 })
    expect((await owner.instance(result.instanceIds[0])).deploymentId).toBe(big.id)
    expect(
      (await owner.post("/conditional-start-events/evaluate", {
        variables: { amount: 5000, vip: true },
        processKey: "vip-orders"
      })).ok(202).startedCount
    ).toBe(1)
    expect((await owner.post("/conditional-start-events/evaluate", { variables: { amount: 1 } })).ok(202)).toEqual({
      correlatedCount: 0,
      startedCount: 0,
      instanceIds: []
    })
    await owner.post(`/deployments/${big.id}/suspend`)
    expect(
      (await owner.post("/conditional-start-events/evaluate", { variables: { amount: 5000 } })).ok(202).startedCount
    ).toBe(0)
  })
})

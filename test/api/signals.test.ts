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
  flows: [{ id: "f1", source: "s", target: "go" }, { id: "f2", source: "go", target: "t" }, { id: "f3", source: "t", target: "e" }]
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
    expect((await owner.get(`/process-instances/${a.id}/event-subscriptions`)).ok()[0]).toMatchObject({ kind: "SIGNAL", name: "go", correlationKey: null })
    expect((await owner.get(`/process-instances/${a.id}/tokens`)).ok()[0]).toMatchObject({ waitingFor: "SIGNAL" })
    const result = (await owner.post("/signals", { signalName: "go", variables: { wave: 1 } })).ok(202)
    expect(result.correlatedCount).toBe(2)
    expect(result.startedCount).toBe(1)
    expect(result.instanceIds.slice(0, 2).sort()).toEqual([a.id, b.id].sort())
    expect((await owner.instance(a.id)).variables).toEqual({ wave: 1 })
    expect(await owner.activateJobs("after-go")).toHaveLength(2)
    expect((await owner.instance(result.instanceIds[2])).state).toBe("COMPLETED")
    expect((await owner.post("/signals", { signalName: "nobody-listens" })).ok(202)).toEqual({ correlatedCount: 0, startedCount: 0, instanceIds: [] })
    // other tenants are not reached
    const stranger = await (await givenTenant()).owner()
    const c = await owner.start(waiting.id)
    expect((await stranger.post("/signals", { signalName: "go" })).ok(202).correlatedCount).toBe(0)
    expect((await owner.get(`/process-instances/${c.id}/event-subscriptions`)).ok()).toHaveLength(1)
  })
})

// Play sessions through HTTP: a draft run by hand in memory — nothing deployed, no jobs or tasks anyone can see.
import { describe, expect, it } from "vitest"
import { fixture, givenTenant } from "../support/Scenario.ts"

const draft = {
  id: "play-order",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "check", type: "serviceTask", properties: { taskType: "play-check" } },
    { id: "gw", type: "exclusiveGateway" },
    { id: "approve", type: "userTask", name: "Approve" },
    { id: "reject", type: "scriptTask", properties: { expression: "= \"rejected\"", resultVariable: "outcome" } },
    { id: "late", type: "boundaryEvent", properties: { attachedTo: "approve", timeDuration: "PT1H" } },
    { id: "e1", type: "endEvent" },
    { id: "e2", type: "endEvent" },
    { id: "e3", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "s", target: "check" },
    { id: "f2", source: "check", target: "gw" },
    { id: "ok", source: "gw", target: "approve", condition: "= score >= 50" },
    { id: "no", source: "gw", target: "reject", default: true },
    { id: "f5", source: "approve", target: "e1" },
    { id: "f6", source: "reject", target: "e2" },
    { id: "f7", source: "late", target: "e3" }
  ]
}

describe("play sessions", () => {
  it("steps through a draft: a mocked job, a gateway decided by variables, a task completed by the step", async () => {
    const owner = await (await givenTenant()).owner()
    const started = (await owner.post("/play/sessions", {
      graph: draft,
      variables: { order: "P-1" },
      mocks: { check: { score: 80 } }
    })).ok(201)
    expect(started).toMatchObject({
      processKey: "play-order",
      state: "ACTIVE",
      steps: 0,
      tokens: [{ nodeId: "check", waitingFor: "job" }]
    })
    const afterCheck = (await owner.post(`/play/sessions/${started.id}/step`, {})).ok()
    expect(afterCheck).toMatchObject({
      steps: 1,
      variables: { order: "P-1", score: 80 },
      tokens: [{ nodeId: "approve", waitingFor: "userTask" }]
    })
    expect(afterCheck.lastStep).toEqual({ answered: "check", passed: ["check", "gw"] })
    // the whole path so far, the start first
    expect(afterCheck.path.map((p: { step: number; answered: string }) => [p.step, p.answered])).toEqual([[
      0,
      afterCheck.processKey
    ], [1, "check"]])
    expect(afterCheck.armedEvents).toEqual([{ nodeId: "late", kind: "timer" }])
    const done = (await owner.post(`/play/sessions/${started.id}/step`, { variables: { approved: true } })).ok()
    expect(done).toMatchObject({ state: "COMPLETED", tokens: [], variables: { approved: true } })
    expect((await owner.get(`/play/sessions/${started.id}`)).ok().steps).toBe(2)
    // Nothing real happened: no deployment, no jobs, no tasks.
    expect((await owner.get("/deployments?key=play-order")).ok().items).toEqual([])
    expect((await owner.get("/jobs?type=play-check")).ok().items).toEqual([])
    ;(await owner.post(`/play/sessions/${started.id}/step`, {})).fails(409, "CONFLICT")
  })

  it("chooses a gateway branch, triggers an armed boundary event, and plays BPMN XML", async () => {
    const owner = await (await givenTenant()).owner()
    const chosen = (await owner.post("/play/sessions", { graph: draft, mocks: { check: { score: 80 } } })).ok(201)
    const rejected = (await owner.post(`/play/sessions/${chosen.id}/step`, { chooseFlows: { gw: "no" } })).ok()
    expect(rejected).toMatchObject({ state: "COMPLETED", variables: { outcome: "rejected" } })

    const timed = (await owner.post("/play/sessions", { graph: draft, mocks: { check: { score: 99 } } })).ok(201)
    await owner.post(`/play/sessions/${timed.id}/step`, {})
    const fired = (await owner.post(`/play/sessions/${timed.id}/step`, { eventNodeId: "late" })).ok()
    expect(fired).toMatchObject({ state: "COMPLETED", lastStep: { answered: "late" } })
    ;(await owner.post(`/play/sessions/${timed.id}/step`, { eventNodeId: "late" })).fails(409, "CONFLICT")

    const xml = (await owner.post("/play/sessions", { xml: fixture("service-task.bpmn") })).ok(201)
    expect(xml.tokens[0].waitingFor).toBe("job")
  })

  it("refuses invalid drafts and bad steps clearly; other tenants and task users cannot use a session", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const invalid = (await owner.post("/play/sessions", {
      graph: { id: "broken", nodes: [{ id: "t", type: "userTask" }], flows: [] }
    })).fails(400, "VALIDATION_ERROR")
    expect(invalid.errors.length).toBeGreaterThan(0)
    ;(await owner.post("/play/sessions", {})).fails(400, "VALIDATION_ERROR")
    const session = (await owner.post("/play/sessions", { graph: draft })).ok(201)
    expect(
      (await owner.post(`/play/sessions/${session.id}/step`, { chooseFlows: { gw: "f1" } })).fails(
        400,
        "VALIDATION_ERROR"
      ).errors[0].field
    ).toBe("chooseFlows")
    expect(
      (await owner.post(`/play/sessions/${session.id}/step`, { tokenId: "nope" })).fails(400, "VALIDATION_ERROR")
        .errors[0].field
    ).toBe("tokenId")
    ;(await (await (await givenTenant()).owner()).get(`/play/sessions/${session.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await (await tenant.taskUser()).get(`/play/sessions/${session.id}`)).fails(403, "FORBIDDEN")
    ;(await owner.get("/play/sessions/00000000-0000-4000-8000-000000000000")).fails(404, "RESOURCE_NOT_FOUND")
  })
})

// Call activities: a child instance of the latest version of the called process; the parent waits and resumes when
// the child ends; cancel takes the whole call tree; an unknown called process is an incident.
import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const child = (taskType: string) => ({
  id: "child-process",
  nodes: [{ id: "cs", type: "startEvent" }, { id: "work", type: "serviceTask", properties: { taskType } }, {
    id: "ce",
    type: "endEvent"
  }],
  flows: [{ id: "c1", source: "cs", target: "work" }, { id: "c2", source: "work", target: "ce" }]
})

const parent = (calledProcess: string, extra: Record<string, unknown> = {}) => ({
  id: "parent-process",
  nodes: [
    { id: "ps", type: "startEvent" },
    {
      id: "call",
      type: "callActivity",
      properties: { processId: calledProcess, inputMappings: [{ source: "= amount * 2", target: "doubled" }], ...extra }
    },
    { id: "after", type: "serviceTask", properties: { taskType: "after-call" } },
    { id: "pe", type: "endEvent" }
  ],
  flows: [{ id: "p1", source: "ps", target: "call" }, { id: "p2", source: "call", target: "after" }, {
    id: "p3",
    source: "after",
    target: "pe"
  }]
})

const childOf = (owner: Caller, parentId: string) =>
  eventually(async () => {
    const items = (await owner.get("/process-instances?processKey=child-process&size=100")).ok().items
    const found = items.find((i: { parentInstanceId: string }) => i.parentInstanceId === parentId)
    if (found === undefined) throw new Error("child not started yet")
    return found
  })

describe("call activity", () => {
  it("starts the latest version of the called process with the parent's variables and resumes the parent when it ends", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy(child("old-work"))
    await owner.deploy(child("child-work"))
    const deployment = await owner.deploy(parent("child-process"))
    const instance = await owner.start(deployment.id, { amount: 21 })
    const called = await childOf(owner, instance.id)
    expect(called).toMatchObject({
      version: 2,
      rootInstanceId: instance.id,
      state: "ACTIVE",
      variables: { amount: 21, doubled: 42 }
    })
    const [token] = (await owner.get(`/process-instances/${instance.id}/tokens`)).ok()
    expect(token).toMatchObject({ nodeId: "call", waitingFor: "CHILD_INSTANCE", childInstanceId: called.id })

    const [job] = await owner.activateJobs("child-work")
    await owner.completeJob(job.id, { childResult: "ok" })
    expect((await owner.instance(called.id)).state).toBe("COMPLETED")
    const [after] = await eventually(async () => {
      const jobs = await owner.activateJobs("after-call")
      if (jobs.length === 0) throw new Error("parent has not resumed yet")
      return jobs
    })
    expect(after.processInstanceId).toBe(instance.id)
    expect((await owner.instance(instance.id)).variables).toMatchObject({ amount: 21, childResult: "ok", doubled: 42 })
    await owner.completeJob(after.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("brings back only the output mappings when propagateAllChildVariables is false", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy(child("child-work"))
    const deployment = await owner.deploy(parent("child-process", {
      propagateAllChildVariables: false,
      outputMappings: [{ source: "= childResult", target: "fromChild" }]
    }))
    const instance = await owner.start(deployment.id, { amount: 1 })
    await childOf(owner, instance.id)
    const [job] = await owner.activateJobs("child-work")
    await owner.completeJob(job.id, { childResult: "r", noise: true })
    await eventually(async () => expect((await owner.activateJobs("after-call")).length).toBe(1))
    const variables = (await owner.instance(instance.id)).variables
    expect(variables).toMatchObject({ fromChild: "r" })
    expect(variables).not.toHaveProperty("noise")
  })

  it("cancels the whole call tree with the root, and refuses to cancel a called instance on its own", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy(child("child-work"))
    const deployment = await owner.deploy(parent("child-process"))
    const instance = await owner.start(deployment.id, { amount: 1 })
    const called = await childOf(owner, instance.id)
    ;(await owner.post(`/process-instances/${called.id}/cancel`)).fails(422, "BUSINESS_ERROR")
    ;(await owner.post(`/process-instances/${instance.id}/cancel`)).ok()
    await eventually(async () => expect((await owner.instance(called.id)).state).toBe("CANCELED"))
    const jobs = (await owner.get(`/jobs?processInstanceId=${called.id}`)).ok().items
    expect(jobs.map((j: { state: string }) => j.state)).toEqual(["CANCELED"])
  })

  it("with bindingType versionTag starts the latest version carrying that tag, or is an incident naming it", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = await owner.deploy({ ...child("tagged-work"), versionTag: "v1.0" })
    await owner.deploy({ ...child("newer-work"), versionTag: "v2.0" })
    expect(v1).toMatchObject({ version: 1, versionTag: "v1.0" })
    const v1Xml = (await owner.get(`/deployments/${v1.id}`)).ok().bpmnXml
    expect(v1Xml).toContain(`<zeebe:versionTag value="v1.0" />`)
    expect(await owner.deploy(v1Xml.replace(/tagged-work/g, "old-work"))).toMatchObject({
      version: 3,
      versionTag: "v1.0"
    })
    const bound = await owner.deploy(parent("child-process", { versionTag: "v1.0" }))
    expect((await owner.get(`/deployments/${bound.id}`)).ok().bpmnXml).toContain(`bindingType="versionTag"`)
    const instance = await owner.start(bound.id, { amount: 1 })
    expect(await childOf(owner, instance.id)).toMatchObject({ version: 3 })
    const unknown = await owner.deploy(parent("child-process", { versionTag: "v9" }))
    const failing = await owner.start(unknown.id, { amount: 1 })
    const incident = await eventually(async () => {
      const [found] = (await owner.get(`/incidents?processInstanceId=${failing.id}`)).ok().items
      if (found === undefined) throw new Error("no incident yet")
      return found
    })
    expect(incident.message).toMatch(/child-process has no version with version tag v9/)
  })

  it("raises an incident on the parent when the called process is not deployed", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(parent("missing-process"))
    const instance = await owner.start(deployment.id, { amount: 1 })
    const incident = await eventually(async () => {
      const [found] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
      if (found === undefined) throw new Error("no incident yet")
      return found
    })
    expect(incident).toMatchObject({ nodeId: "call", type: "CALLED_ELEMENT_ERROR", state: "OPEN" })
    expect(incident.message).toMatch(/missing-process is not deployed/)
    expect((await owner.instance(instance.id)).incidentCount).toBe(1)
  })
})

describe("errors and escalations from a called process", () => {
  const withBoundary = (boundary: Record<string, unknown>) => {
    const model = parent("child-process")
    return {
      ...model,
      nodes: [
        ...model.nodes,
        { id: "caught", type: "boundaryEvent", properties: { attachedTo: "call", ...boundary } },
        { id: "handle", type: "serviceTask", properties: { taskType: "handle-child-trouble" } },
        { id: "he", type: "endEvent" }
      ],
      flows: [...model.flows, { id: "p4", source: "caught", target: "handle" }, {
        id: "p5",
        source: "handle",
        target: "he"
      }]
    }
  }

  it("a job error the child does not catch ends the child and is caught by the call activity's error boundary", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy(child("child-may-fail"))
    const deployment = await owner.deploy(withBoundary({ errorCode: "NO_STOCK" }))
    const instance = await owner.start(deployment.id, { amount: 1 })
    const called = await childOf(owner, instance.id)
    const [job] = await owner.activateJobs("child-may-fail")
    ;(await owner.post(`/jobs/${job.id}/error`, { errorCode: "NO_STOCK", variables: { missing: "sku-1" } })).ok()
    expect((await owner.instance(called.id)).state).toBe("CANCELED")
    const [handle] = await eventually(async () => {
      const jobs = await owner.activateJobs("handle-child-trouble")
      if (jobs.length === 0) throw new Error("parent has not caught it yet")
      return jobs
    })
    expect(handle).toMatchObject({ processInstanceId: instance.id, variables: { missing: "sku-1" } })
    expect((await owner.history(called.id)).map((e: { type: string }) => e.type)).toContain("ErrorPropagated")

    // Another code: nothing catches it in the parent either -> an incident at the call activity.
    const second = await owner.start(deployment.id, { amount: 2 })
    await childOf(owner, second.id)
    const [job2] = await owner.activateJobs("child-may-fail")
    ;(await owner.post(`/jobs/${job2.id}/error`, { errorCode: "OTHER", errorMessage: "boom" })).ok()
    const [incident] = await eventually(async () => {
      const items = (await owner.get(`/incidents?processInstanceId=${second.id}`)).ok().items
      if (items.length === 0) throw new Error("no incident yet")
      return items
    })
    expect(incident).toMatchObject({ nodeId: "call", type: "UNHANDLED_ERROR_EVENT" })
  })

  it("an escalation the child does not catch reaches a non-interrupting boundary of the call activity; the child goes on", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy({
      id: "child-process",
      nodes: [
        { id: "cs", type: "startEvent" },
        { id: "raise", type: "intermediateThrowEvent", properties: { escalationCode: "SLOW" } },
        { id: "work", type: "serviceTask", properties: { taskType: "child-slow-work" } },
        { id: "ce", type: "endEvent" }
      ],
      flows: [{ id: "c1", source: "cs", target: "raise" }, { id: "c2", source: "raise", target: "work" }, {
        id: "c3",
        source: "work",
        target: "ce"
      }]
    })
    const deployment = await owner.deploy(withBoundary({ escalationCode: "SLOW", cancelActivity: false }))
    const instance = await owner.start(deployment.id, { amount: 3 })
    const called = await childOf(owner, instance.id)
    const [handle] = await eventually(async () => {
      const jobs = await owner.activateJobs("handle-child-trouble")
      if (jobs.length === 0) throw new Error("parent has not caught it yet")
      return jobs
    })
    expect(handle.processInstanceId).toBe(instance.id)
    const [work] = await owner.activateJobs("child-slow-work")
    expect(work.processInstanceId).toBe(called.id)
  })
})

// Deployments: BPMN XML or JSON graph, versioned per process key, validated with every problem listed.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

const jsonProcess = (key: string) => ({
  id: key,
  name: "Charge (JSON)",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "charge", type: "serviceTask", name: "Charge card", properties: { taskType: "charge-card", retries: 3 } },
    { id: "end", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "start", target: "charge" },
    { id: "f2", source: "charge", target: "end" }
  ]
})

describe("deployments", () => {
  it("deploys Camunda Modeler XML unchanged, versions per key, lists history and returns the XML", async () => {
    const owner = await (await givenTenant()).owner()
    const xml = fixture("service-task.bpmn")
    const v1 = await owner.deploy(xml)
    const v2 = await owner.deploy(xml)
    expect(v1).toMatchObject({
      key: "charge-order",
      name: "Charge order",
      version: 1,
      format: "BPMN_XML",
      state: "ACTIVE"
    })
    expect(v2.version).toBe(2)
    const history = (await owner.get("/deployments?key=charge-order")).ok()
    expect(history.items.map((d: { version: number }) => d.version)).toEqual([2, 1])
    const detail = (await owner.get(`/deployments/${v1.id}`)).ok()
    expect(detail.bpmnXml).toBe(xml)
    const nodes = (await owner.get(`/deployments/${v1.id}/nodes`)).ok()
    expect(nodes).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: "start", type: "startEvent" }),
      expect.objectContaining({ id: "charge", type: "serviceTask", name: "Charge card" }),
      expect.objectContaining({ id: "end", type: "endEvent" })
    ]))
  })

  it("deploys a JSON graph, serves generated BPMN XML, and that XML re-deploys to the same nodes", async () => {
    const owner = await (await givenTenant()).owner()
    const deployed = await owner.deploy(jsonProcess("charge-json"))
    expect(deployed).toMatchObject({ key: "charge-json", format: "JSON_GRAPH", version: 1 })
    const detail = (await owner.get(`/deployments/${deployed.id}`)).ok()
    expect(detail.bpmnXml).toContain("bpmn:definitions")
    expect(detail.source.nodes).toHaveLength(3)
    const again = await owner.deploy(detail.bpmnXml)
    expect(again).toMatchObject({ key: "charge-json", version: 2, format: "BPMN_XML" })
    const nodes = (id: string) =>
      owner.get(`/deployments/${id}/nodes`).then((r) =>
        r.ok().map((n: { id: string; type: string }) => `${n.id}:${n.type}`).sort()
      )
    expect(await nodes(again.id)).toEqual(await nodes(deployed.id))
  })

  it("rejects an invalid model with 400 VALIDATION_ERROR listing every problem by element id", async () => {
    const owner = await (await givenTenant()).owner()
    const body = (await owner.post("/deployments", {
      id: "broken",
      nodes: [
        { id: "task", type: "serviceTask", properties: { taskType: "x" } },
        { id: "gw", type: "exclusiveGateway" },
        { id: "a", type: "endEvent" },
        { id: "b", type: "endEvent" },
        { id: "weird", type: "complexGateway" }
      ],
      flows: [
        { id: "f1", source: "task", target: "gw" },
        { id: "f2", source: "gw", target: "a" },
        { id: "f3", source: "gw", target: "b" },
        { id: "f4", source: "task", target: "nowhere" }
      ]
    })).fails(400, "VALIDATION_ERROR")
    const fields = body.errors.map((e: { field: string }) => e.field)
    expect(fields).toEqual(expect.arrayContaining(["gw", "f4", "weird"]))
    expect(body.errors.length).toBeGreaterThanOrEqual(4)
  })

  it("refuses listeners and non-latest bindings by element and name instead of running without them", async () => {
    const owner = await (await givenTenant()).owner()
    const xml = definitions(`<bpmn:process id="listened" isExecutable="true">
    <bpmn:startEvent id="s" />
    <bpmn:userTask id="work"><bpmn:extensionElements><zeebe:userTask />
      <zeebe:taskListeners><zeebe:taskListener eventType="escalating" type="audit" /></zeebe:taskListeners>
    </bpmn:extensionElements></bpmn:userTask>
    <bpmn:endEvent id="e" />
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="work" />
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="e" />
  </bpmn:process>`)
    const body = (await owner.call("POST", "/deployments", { rawBody: xml, contentType: "application/xml" })).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(body.errors).toEqual([
      expect.objectContaining({ field: "work", message: expect.stringContaining("zeebe:taskListeners") })
    ])
  })

  it("rejects hostile or malformed XML with 400, quickly", async () => {
    const owner = await (await givenTenant()).owner()
    const billionLaughs =
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
      <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"><bpmn:process id="p">&lol2;</bpmn:process></bpmn:definitions>`
    ;(await owner.call("POST", "/deployments", { rawBody: billionLaughs, contentType: "application/xml" })).fails(
      400,
      "VALIDATION_ERROR"
    )
    ;(await owner.call("POST", "/deployments", { rawBody: "<not-closed", contentType: "application/xml" })).fails(
      400,
      "VALIDATION_ERROR"
    )
    const deep = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL">${"<a>".repeat(5000)}${
      "</a>".repeat(5000)
    }</bpmn:definitions>`
    ;(await owner.call("POST", "/deployments", { rawBody: deep, contentType: "application/xml" })).fails(
      400,
      "VALIDATION_ERROR"
    )
  })

  it("suspends and resumes; undeploy is refused while instances run", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    expect((await owner.post(`/deployments/${deployment.id}/suspend`)).ok().state).toBe("SUSPENDED")
    ;(await owner.post("/process-instances", { deploymentId: deployment.id })).fails(409, "CONFLICT")
    expect((await owner.post(`/deployments/${deployment.id}/resume`)).ok().state).toBe("ACTIVE")
    const instance = await owner.start(deployment.id)
    ;(await owner.delete(`/deployments/${deployment.id}`)).fails(422, "BUSINESS_ERROR")
    ;(await owner.post(`/process-instances/${instance.id}/cancel`)).ok()
    ;(await owner.delete(`/deployments/${deployment.id}`)).fails(422, "BUSINESS_ERROR")
    ;(await owner.delete(`/deployments/${deployment.id}?includeFinishedInstances=true`)).ok()
    ;(await owner.get(`/deployments/${deployment.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await owner.get(`/process-instances/${instance.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })

  it("refuses starts at once after a suspension, though starts just read the deployment as active", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    await Promise.all([owner.start(deployment.id), owner.start(deployment.id)])
    ;(await owner.post(`/deployments/${deployment.id}/suspend`)).ok()
    ;(await owner.post("/process-instances", { deploymentId: deployment.id })).fails(409, "CONFLICT")
    ;(await owner.post(`/deployments/${deployment.id}/resume`)).ok()
    await owner.start(deployment.id)
  })

  it("needs ADMIN or PROCESS_OWNER to deploy; reads are open; other tenants see nothing", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const taskUser = await tenant.taskUser()
    ;(await taskUser.call("POST", "/deployments", {
      rawBody: fixture("service-task.bpmn"),
      contentType: "application/xml"
    })).fails(403, "FORBIDDEN")
    ;(await taskUser.get(`/deployments/${deployment.id}`)).ok()
    const stranger = await (await givenTenant()).admin()
    expect((await stranger.get(`/deployments/${deployment.id}`)).fails(404, "RESOURCE_NOT_FOUND").message).toBe(
      `deployment ${deployment.id} not found`
    )
    expect((await stranger.get("/deployments")).ok().totalItems).toBe(0)
  })
})

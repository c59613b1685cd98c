// bindingType="deployment" (Camunda 8.6+): a call activity, a business rule task or a user task form binds to the
// resource deployed in the same POST /deployments as its process version — not to a newer version deployed since —
// and a deployment that lacks the resource it binds to is refused at deploy (Zeebe: "Expected to find process with id
// '...' in current deployment"), naming the element and the missing id.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { eventually } from "../support/Eventually.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const bpmn = (id: string, body: string) =>
  definitions(
    `<bpmn:process id="${id}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="step" />
    ${body}
    <bpmn:sequenceFlow id="f2" sourceRef="step" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`,
    { id: `d-${id}` }
  )

const child = (jobType: string) =>
  bpmn(
    "shipping",
    `<bpmn:serviceTask id="step"><bpmn:extensionElements><zeebe:taskDefinition type="${jobType}" />
    </bpmn:extensionElements></bpmn:serviceTask>`
  )
const caller = bpmn(
  "order",
  `<bpmn:callActivity id="step"><bpmn:extensionElements>
    <zeebe:calledElement processId="shipping" bindingType="deployment" /></bpmn:extensionElements></bpmn:callActivity>`
)
const dmn = (dish: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="menu" name="Menu"
  namespace="http://example.com/menu">
  <decision id="dish" name="Dish">
    <decisionTable id="t">
      <input id="i"><inputExpression id="e" typeRef="string"><text>season</text></inputExpression></input>
      <output id="o" name="dish" typeRef="string" />
      <rule id="r"><inputEntry id="ie"><text>-</text></inputEntry><outputEntry id="oe"><text>"${dish}"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`
const dinner = bpmn(
  "dinner",
  `<bpmn:businessRuleTask id="step"><bpmn:extensionElements>
    <zeebe:calledDecision decisionId="dish" resultVariable="choice" bindingType="deployment" />
  </bpmn:extensionElements></bpmn:businessRuleTask>
  <bpmn:sequenceFlow id="f3" sourceRef="step" targetRef="wait" />
  <bpmn:userTask id="wait"><bpmn:extensionElements><zeebe:userTask /></bpmn:extensionElements></bpmn:userTask>`
).replace(
  `<bpmn:sequenceFlow id="f2" sourceRef="step" targetRef="end" />`,
  `<bpmn:sequenceFlow id="f2" sourceRef="wait" targetRef="end" />`
)
const leave = bpmn(
  "leave",
  `<bpmn:userTask id="step"><bpmn:extensionElements><zeebe:userTask />
    <zeebe:formDefinition formId="leave-form" bindingType="deployment" /></bpmn:extensionElements></bpmn:userTask>`
)
const form = (label: string) =>
  JSON.stringify({
    id: "leave-form",
    type: "default",
    schemaVersion: 16,
    components: [{ type: "textfield", key: "days", label }]
  })

const deployTogether = (owner: Caller, resources: ReadonlyArray<{ name: string; content: string }>) =>
  owner.post("/deployments", { resources })

describe("bindingType deployment", () => {
  it("a call activity starts the callee deployed with it, even after a newer version is deployed alone", async () => {
    const owner = await (await givenTenant()).owner()
    const deployed = (await deployTogether(owner, [
      { name: "order.bpmn", content: caller },
      { name: "shipping.bpmn", content: child("ship-v1") }
    ])).ok(201)
    expect(deployed).toMatchObject({ key: "order", version: 1 })
    expect(deployed.resources.map((r: { kind: string; key: string }) => `${r.kind}:${r.key}`)).toEqual([
      "PROCESS:order",
      "PROCESS:shipping"
    ])
    const newer = await owner.deploy(child("ship-v2"))
    expect(newer.version).toBe(2)
    const bundled = deployed.resources.find((r: { key: string }) => r.key === "shipping")
    expect((await owner.get(`/deployments/${bundled.id}`)).ok().bundleId).toBe(deployed.bundleId)

    const instance = await owner.start(deployed.id)
    const called = await eventually(async () => {
      const items = (await owner.get("/process-instances?processKey=shipping&size=100")).ok().items
      const found = items.find((i: { parentInstanceId: string }) => i.parentInstanceId === instance.id)
      if (found === undefined) throw new Error("child not started yet")
      return found
    })
    expect(called).toMatchObject({ deploymentId: bundled.id, version: 1 })
    expect(await owner.activateJobs("ship-v2")).toEqual([])
    const [job] = await owner.activateJobs("ship-v1")
    await owner.completeJob(job.id)
    await eventually(async () => expect((await owner.instance(instance.id)).state).toBe("COMPLETED"))
  })

  it("a callee undeployed since is an incident naming it and the binding, not a newer version", async () => {
    const owner = await (await givenTenant()).owner()
    const deployed = (await deployTogether(owner, [
      { name: "order.bpmn", content: caller },
      { name: "shipping.bpmn", content: child("ship-v1") }
    ])).ok(201)
    await owner.deploy(child("ship-v2"))
    const bundled = deployed.resources.find((r: { key: string }) => r.key === "shipping")
    ;(await owner.delete(`/deployments/${bundled.id}`)).ok()
    const instance = await owner.start(deployed.id)
    await eventually(async () => {
      const incidents = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
      expect(incidents.map((i: { message: string }) => i.message).join()).toMatch(
        /called process shipping is not in the deployment of the calling process version/
      )
    })
    expect(await owner.activateJobs("ship-v2")).toEqual([])
  })

  it("is refused at deploy when the callee is not in the deployment, naming the element and the missing id", async () => {
    const owner = await (await givenTenant()).owner()
    await owner.deploy(child("ship-v1"))
    const alone = (await owner.call("POST", "/deployments", { rawBody: caller, contentType: "application/xml" }))
      .fails(400, "VALIDATION_ERROR")
    expect(alone.errors).toEqual([expect.objectContaining({ field: "step", code: "NOT_IN_DEPLOYMENT" })])
    expect(alone.message).toMatch(/step.*process "shipping"/)
    const withoutIt = (await deployTogether(owner, [
      { name: "order.bpmn", content: caller },
      { name: "menu.dmn", content: dmn("Soup") }
    ])).fails(400, "VALIDATION_ERROR")
    expect(withoutIt.message).toMatch(/process "shipping"/)
    // nothing of a refused deployment is stored
    expect((await owner.get("/deployments?key=order")).ok().items).toEqual([])
    expect((await owner.get("/decisions?key=dish")).ok().items).toEqual([])
  })

  it("a business rule task evaluates the decision deployed with it, not a newer one", async () => {
    const owner = await (await givenTenant()).owner()
    const deployed = (await deployTogether(owner, [
      { name: "dinner.bpmn", content: dinner },
      { name: "menu.dmn", content: dmn("Roastbeef") }
    ])).ok(201)
    ;(await owner.call("POST", "/decisions/import", { rawBody: dmn("Salad"), contentType: "application/xml" }))
      .ok(201)
    const instance = await owner.start(deployed.id, { season: "winter" })
    await eventually(async () => expect((await owner.instance(instance.id)).variables.choice).toBe("Roastbeef"))
  })

  it("GET /tasks/{id}/form serves the form deployed with the process version", async () => {
    const owner = await (await givenTenant()).owner()
    const deployed = (await deployTogether(owner, [
      { name: "leave.bpmn", content: leave },
      { name: "leave.form", content: form("Days off") }
    ])).ok(201)
    expect(deployed.resources.map((r: { kind: string }) => r.kind)).toEqual(["PROCESS", "FORM"])
    ;(await owner.post("/forms", { key: "leave-form", schema: { fields: [{ id: "reason", type: "string" }] } }))
      .ok(201)
    const instance = await owner.start(deployed.id)
    const [task] = await eventually(async () => {
      const tasks = await owner.tasks(`?processInstanceId=${instance.id}`)
      if (tasks.length === 0) throw new Error("no task yet")
      return tasks
    })
    expect(task.formBinding).toBe("deployment")
    const served = (await owner.get(`/tasks/${task.id}/form`)).ok()
    expect(served).toMatchObject({ formKey: "leave-form", source: "LEGACY_FORM", schema: { id: "leave-form" } })
    expect(JSON.stringify(served.schema)).toContain("Days off")
  })

  it("refuses a resource of an unknown kind, a form without its id, and the same process twice", async () => {
    const owner = await (await givenTenant()).owner()
    const unknown = (await deployTogether(owner, [{ name: "notes.txt", content: "hello" }])).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(unknown.errors[0]).toMatchObject({ field: "notes.txt" })
    const noId = (await deployTogether(owner, [
      { name: "leave.bpmn", content: leave },
      { name: "leave.form", content: "{}" }
    ])).fails(400, "VALIDATION_ERROR")
    expect(noId.errors[0]).toMatchObject({ field: "leave.form" })
    const twice = (await deployTogether(owner, [
      { name: "a.bpmn", content: child("x") },
      { name: "b.bpmn", content: child("y") }
    ])).fails(400, "VALIDATION_ERROR")
    expect(twice.message).toMatch(/process shipping/)
  })
})

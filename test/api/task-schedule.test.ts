// User task priority and schedule through HTTP: from the Modeler's zeebe:priorityDefinition and zeebe:taskSchedule,
// on the task resource, filtered and sorted in GET /tasks; a bad value is refused at deploy or is an incident.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const modelerXml = (processId: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="d" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${processId}" isExecutable="true">
    <bpmn:startEvent id="s" />
    <bpmn:userTask id="approve" name="Approve">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:priorityDefinition priority="=urgency" />
        <zeebe:taskSchedule dueDate="=due" followUpDate="2026-12-01T09:00:00+01:00" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="e" />
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="e" />
  </bpmn:process>
</bpmn:definitions>`

describe("user task priority and schedule", () => {
  it("come from the model, are on the task, and filter and sort the task list", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(modelerXml("approval"))
    const low = await owner.start(deployment.id, { urgency: 10, due: "2026-12-05T12:00:00Z" })
    const high = await owner.start(deployment.id, { urgency: 90, due: "2026-12-03T12:00:00Z" })
    const undated = await owner.start(deployment.id, { urgency: 50, due: null })
    const [lowTask] = await owner.tasks(`?processInstanceId=${low.id}`)
    expect(lowTask).toMatchObject({
      priority: 10,
      dueDate: "2026-12-05T12:00:00.000Z",
      followUpDate: "2026-12-01T08:00:00.000Z"
    })
    const order = (tasks: Array<any>) => tasks.map((t) => t.processInstanceId)
    expect(order(await owner.tasks("?sort=priority"))).toEqual([high.id, undated.id, low.id])
    expect(order(await owner.tasks("?sort=dueDate"))).toEqual([high.id, low.id, undated.id])
    expect(order(await owner.tasks("?dueBefore=2026-12-04T00:00:00Z"))).toEqual([high.id])
    expect(order(await owner.tasks("?dueAfter=2026-12-04T00:00:00Z"))).toEqual([low.id])
    expect(await owner.tasks("?followUpBefore=2026-12-01T08:00:00Z")).toEqual([])
    expect(await owner.tasks("?followUpAfter=2026-12-01T08:00:00Z&size=5")).toHaveLength(3)
    const bad = (await owner.get("/tasks?dueBefore=tomorrow")).fails(400, "VALIDATION_ERROR")
    expect(bad.errors).toContainEqual(expect.objectContaining({ field: "dueBefore" }))
    ;(await owner.get("/tasks?sort=urgency")).fails(400, "VALIDATION_ERROR")
  })

  it("a literal that is no priority is refused at deploy; an expression's bad value is an incident to fix", async () => {
    const owner = await (await givenTenant()).owner()
    const refused = (await owner.post("/deployments", {
      id: "bad-priority",
      nodes: [{ id: "s", type: "startEvent" }, { id: "t", type: "userTask", properties: { priority: 150 } }, {
        id: "e",
        type: "endEvent"
      }],
      flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
    })).fails(400, "VALIDATION_ERROR")
    expect(refused.errors).toEqual([
      expect.objectContaining({ field: "t", message: expect.stringContaining("priority \"150\"") })
    ])
    // A JSON deployment's generated XML carries them as the Modeler writes them.
    const json = await owner.deploy({
      id: "json-schedule",
      nodes: [{ id: "s", type: "startEvent" }, {
        id: "t",
        type: "userTask",
        properties: { priority: 80, dueDate: "= due", followUpDate: "2026-12-01T09:00:00Z" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
    })
    const { bpmnXml } = (await owner.get(`/deployments/${json.id}`)).ok()
    expect(bpmnXml).toContain(`<zeebe:priorityDefinition priority="80" />`)
    expect(bpmnXml).toContain(`<zeebe:taskSchedule dueDate="= due" followUpDate="2026-12-01T09:00:00Z" />`)
    const deployment = await owner.deploy(modelerXml("approval-bad"))
    const instance = await owner.start(deployment.id, { urgency: "very", due: null })
    expect(await owner.tasks(`?processInstanceId=${instance.id}`)).toEqual([])
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incident).toMatchObject({ nodeId: "approve", message: expect.stringContaining("priority \"very\"") })
    ;(await owner.post(`/incidents/${incident.id}/edit-variables-and-retry`, { variables: { urgency: 75 } })).ok()
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(task).toMatchObject({ priority: 75, dueDate: null })
  })
})

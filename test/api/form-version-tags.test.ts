// A user task's form bound by version tag (zeebe:formDefinition bindingType="versionTag"): GET /tasks/{id}/form serves
// the latest version of the form carrying that versionTag, not the latest version; none is a 404 naming the tag.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const process = (tag: string) =>
  definitions(`<bpmn:process id="leave-${tag}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fill" />
    <bpmn:userTask id="fill">
      <bpmn:extensionElements>
        <zeebe:userTask />
        <zeebe:formDefinition formId="leave-form" bindingType="versionTag" versionTag="${tag}" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="fill" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("form version tags", () => {
  it("serve the form version carrying the task's tag", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = (await owner.post("/forms", {
      key: "leave-form",
      schema: { versionTag: "2024", fields: [{ id: "days", type: "number" }] }
    })).ok(201)
    ;(await owner.put(`/forms/${v1.id}`, {
      schema: { versionTag: "2025", fields: [{ id: "days", type: "number" }, { id: "reason", type: "string" }] }
    })).ok()
    const deployment = await owner.deploy(process("2024"))
    const instance = await owner.start(deployment.id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(task.formVersionTag).toBe("2024")
    const form = (await owner.get(`/tasks/${task.id}/form`)).ok()
    expect(form).toMatchObject({ formKey: "leave-form", schema: { versionTag: "2024" } })
    expect(JSON.stringify(form.schema)).not.toContain("reason")
  })

  it("answer 404 naming the tag when no version of the form carries it", async () => {
    const owner = await (await givenTenant()).owner()
    ;(await owner.post("/forms", { key: "leave-form", schema: { versionTag: "2024", fields: [] } })).ok(201)
    const deployment = await owner.deploy(process("1999"))
    const instance = await owner.start(deployment.id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    const missing = (await owner.get(`/tasks/${task.id}/form`)).fails(404, "RESOURCE_NOT_FOUND")
    expect(missing.message).toMatch(/leave-form with version tag 1999/)
  })
})

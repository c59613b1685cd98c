// Binding by version tag: a business rule task with bindingType="versionTag" evaluates the latest version of the
// decision deployed with that zeebe:versionTag, not the latest version; a tag nobody deployed is an incident naming it.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { eventually } from "../support/Eventually.ts"
import { givenTenant } from "../support/Scenario.ts"

const dmn = (tag: string, dish: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"
  id="menu" name="Menu" namespace="http://example.com/menu">
  <decision id="dish" name="Dish">
    <extensionElements><zeebe:versionTag value="${tag}" /></extensionElements>
    <decisionTable id="t">
      <input id="i"><inputExpression id="e" typeRef="string"><text>season</text></inputExpression></input>
      <output id="o" name="dish" typeRef="string" />
      <rule id="r"><inputEntry id="ie"><text>-</text></inputEntry><outputEntry id="oe"><text>"${dish}"</text></outputEntry></rule>
    </decisionTable>
  </decision>
</definitions>`

const process = (tag: string) =>
  definitions(`<bpmn:process id="dinner-${tag}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="decide" />
    <bpmn:businessRuleTask id="decide">
      <bpmn:extensionElements>
        <zeebe:calledDecision decisionId="dish" resultVariable="choice" bindingType="versionTag" versionTag="${tag}" />
      </bpmn:extensionElements>
    </bpmn:businessRuleTask>
    <bpmn:sequenceFlow id="f2" sourceRef="decide" targetRef="wait" />
    <bpmn:userTask id="wait"><bpmn:extensionElements><zeebe:userTask /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f3" sourceRef="wait" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("decision version tags", () => {
  it("bind a business rule task to the version deployed with the tag", async () => {
    const owner = await (await givenTenant()).owner()
    const importDmn = (xml: string) =>
      owner.call("POST", "/decisions/import", { rawBody: xml, contentType: "application/xml" })
    ;(await importDmn(dmn("2024", "Roastbeef"))).ok(201)
    const latest = (await importDmn(dmn("2025", "Salad"))).ok(201)
    expect(JSON.stringify(latest)).toContain(`"versionTag":"2025"`)
    const tagged = await owner.deploy(process("2024"))
    const instance = await owner.start(tagged.id, { season: "winter" })
    await eventually(async () => expect((await owner.instance(instance.id)).variables.choice).toBe("Roastbeef"))
  })

  it("raise an incident naming the tag when no version carries it", async () => {
    const owner = await (await givenTenant()).owner()
    ;(await owner.call("POST", "/decisions/import", { rawBody: dmn("2024", "Soup"), contentType: "application/xml" }))
      .ok(201)
    const deployment = await owner.deploy(process("1999"))
    const instance = await owner.start(deployment.id)
    await eventually(async () => {
      const incidents = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
      expect(incidents.map((i: { message: string }) => i.message).join()).toMatch(/dish with version tag 1999/)
    })
  })
})

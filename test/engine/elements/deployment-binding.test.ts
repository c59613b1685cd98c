// Unit tests of the pure core: bindingType="deployment" travels with what the instance asks of the outside — the
// called process, the decision and the task's form — so the host resolves each within the caller's deployment.
import { describe, expect, it } from "vitest"
import { definitions } from "../../support/BpmnXml.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOfXml } from "../../support/Graphs.ts"

const model = (element: string) =>
  definitions(`<bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="step" />
    ${element}
    <bpmn:sequenceFlow id="f2" sourceRef="step" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("bindingType deployment", () => {
  it("a call activity asks for its child with the binding", async () => {
    const s = scenario(
      await graphOfXml(model(`<bpmn:callActivity id="step"><bpmn:extensionElements>
      <zeebe:calledElement processId="child" bindingType="deployment" /></bpmn:extensionElements></bpmn:callActivity>`))
    )
    s.start()
    expect(s.events.find((e) => e.type === "ChildInstanceRequested")).toMatchObject({
      processKey: "child",
      binding: "deployment"
    })
  })

  it("a business rule task asks for its decision with the binding", async () => {
    const s = scenario(
      await graphOfXml(model(`<bpmn:businessRuleTask id="step"><bpmn:extensionElements>
      <zeebe:calledDecision decisionId="dish" resultVariable="r" bindingType="deployment" />
      </bpmn:extensionElements></bpmn:businessRuleTask>`))
    )
    s.start()
    const requested = s.events.find((e) => e.type === "DecisionRequested")
    expect(requested).toMatchObject({ decisionId: "dish", binding: "deployment" })
    expect(requested).not.toHaveProperty("versionTag")
  })

  it("a user task keeps that its form binds by deployment", async () => {
    const s = scenario(
      await graphOfXml(model(`<bpmn:userTask id="step"><bpmn:extensionElements><zeebe:userTask />
      <zeebe:formDefinition formId="leave-form" bindingType="deployment" /></bpmn:extensionElements></bpmn:userTask>`))
    )
    s.start()
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({
      formKey: "leave-form",
      formBinding: "deployment"
    })
  })
})

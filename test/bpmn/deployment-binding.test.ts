// bindingType="deployment" in the model: read into the graph, checked against what a deployment holds (every element
// at any depth, naming the element and the missing id), and written back to XML as it was read.
import { describe, expect, it } from "vitest"
import { deploymentBindingProblems } from "../../src/bpmn/DeploymentBinding.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { writeBpmnXml } from "../../src/bpmn/WriteBpmnXml.ts"
import { definitions } from "../support/BpmnXml.ts"
import { compileXml, graphOfXml } from "../support/Graphs.ts"

const model = definitions(`<bpmn:process id="order" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="sub" />
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="s-start" />
      <bpmn:sequenceFlow id="s1" sourceRef="s-start" targetRef="call" />
      <bpmn:callActivity id="call"><bpmn:extensionElements>
        <zeebe:calledElement processId="shipping" bindingType="deployment" /></bpmn:extensionElements>
      </bpmn:callActivity>
      <bpmn:sequenceFlow id="s2" sourceRef="call" targetRef="s-end" />
      <bpmn:endEvent id="s-end" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="decide" />
    <bpmn:businessRuleTask id="decide"><bpmn:extensionElements>
      <zeebe:calledDecision decisionId="dish" resultVariable="choice" bindingType="deployment" />
    </bpmn:extensionElements></bpmn:businessRuleTask>
    <bpmn:sequenceFlow id="f3" sourceRef="decide" targetRef="tagged" />
    <bpmn:businessRuleTask id="tagged"><bpmn:extensionElements>
      <zeebe:calledDecision decisionId="dish" resultVariable="choice" bindingType="versionTag" versionTag="v2" />
    </bpmn:extensionElements></bpmn:businessRuleTask>
    <bpmn:sequenceFlow id="f4" sourceRef="tagged" targetRef="fill" />
    <bpmn:userTask id="fill"><bpmn:extensionElements><zeebe:userTask />
      <zeebe:formDefinition formId="leave-form" bindingType="deployment" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f5" sourceRef="fill" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

const none = new Set<string>()

describe("bindingType deployment", () => {
  it("is read into the graph on call activities, business rule tasks and user task forms", async () => {
    const graph = await graphOfXml(model)
    expect(graph.nodes["call"]).toMatchObject({ call: { processId: "shipping", binding: "deployment" } })
    expect(graph.nodes["decide"]).toMatchObject({ decision: { decisionId: "dish", binding: "deployment" } })
    expect(graph.nodes["fill"]).toMatchObject({ userTask: { formKey: "leave-form", formBinding: "deployment" } })
  })

  it("is checked against what the deployment holds, naming each element and the id it misses", async () => {
    const graph = await graphOfXml(model)
    const problems = deploymentBindingProblems(graph, { processes: new Set(["order"]), decisions: none, forms: none })
    expect(problems.map((p) => p.elementId)).toEqual(["call", "decide", "fill"])
    expect(problems[0]!.message).toMatch(/callActivity call binds process "shipping" by deployment/)
    expect(problems[2]!.message).toMatch(/form "leave-form"/)
    const complete = {
      processes: new Set(["order", "shipping"]),
      decisions: new Set(["dish"]),
      forms: new Set(["leave-form"])
    }
    expect(deploymentBindingProblems(graph, complete)).toEqual([])
  })

  it("is written back to XML as read (and so is a decision's versionTag binding)", async () => {
    const graph = await graphOfXml(model)
    const xml = await writeBpmnXml(graph)
    const again = await compileXml(xml)
    expect(again.ok, JSON.stringify(!again.ok && again.problems)).toBe(true)
    const nodes = again.ok ? again.graph.nodes : {}
    expect(nodes["call"]).toMatchObject({ call: { processId: "shipping", binding: "deployment" } })
    expect(nodes["decide"]).toMatchObject({ decision: { decisionId: "dish", binding: "deployment" } })
    expect(nodes["tagged"]).toMatchObject({ decision: { decisionId: "dish", versionTag: "v2" } })
    expect(nodes["fill"]).toMatchObject({ userTask: { formKey: "leave-form", formBinding: "deployment" } })
    expect((await readBpmnXml(xml)).ok).toBe(true)
  })
})

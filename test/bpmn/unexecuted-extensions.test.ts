// Zeebe extensions the engine does not execute are refused at deploy by element and name, never silently dropped.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { definitions } from "../support/BpmnXml.ts"

const model = (processExtensions: string, taskXml: string) =>
  definitions(`<bpmn:process id="p" isExecutable="true">
    <bpmn:extensionElements>${processExtensions}</bpmn:extensionElements>
    <bpmn:startEvent id="s" />
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="sub-s" />
      ${taskXml}
      <bpmn:sequenceFlow id="sf" sourceRef="sub-s" targetRef="t" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="sub" />
  </bpmn:process>`)

/** What reading refuses, or else what compiling refuses (a model is refused by one or the other). */
const problemsOf = async (xml: string) => {
  const read = await readBpmnXml(xml)
  if (!read.ok) return read.problems
  const compiled = compileDraft(read.draft)
  return compiled.ok ? [] : compiled.problems.filter((p) => /not executed|not supported/.test(p.message))
}

describe("extensions the engine does not execute", () => {
  it("refuses unexecuted task listeners, naming the element (process execution listeners deploy)", async () => {
    const processLevel = await problemsOf(model(
      `<zeebe:executionListeners><zeebe:executionListener eventType="start" type="audit" /></zeebe:executionListeners>`,
      `<bpmn:userTask id="t"><bpmn:extensionElements><zeebe:userTask /><zeebe:taskListeners>
        <zeebe:taskListener eventType="escalating" type="check" /></zeebe:taskListeners></bpmn:extensionElements>
      </bpmn:userTask>`
    ))
    expect(processLevel).toEqual([
      {
        elementId: "t",
        message: expect.stringContaining(`user task listeners (zeebe:taskListeners) of eventType "escalating"`)
      }
    ])
    const taskLevel = await problemsOf(model(
      "",
      `<bpmn:userTask id="t"><bpmn:extensionElements><zeebe:userTask /><zeebe:taskListeners>
        <zeebe:taskListener eventType="escalating" type="check" /></zeebe:taskListeners></bpmn:extensionElements>
      </bpmn:userTask>`
    ))
    expect(taskLevel).toEqual([
      {
        elementId: "t",
        message: expect.stringContaining(`user task listeners (zeebe:taskListeners) of eventType "escalating"`)
      }
    ])
  })

  it("refuses a bindingType other than latest, deployment and versionTag; those deploy", async () => {
    const callActivity = (binding: string) =>
      `<bpmn:callActivity id="t"><bpmn:extensionElements><zeebe:calledElement processId="child" ${binding} />
      </bpmn:extensionElements></bpmn:callActivity>`
    const decision = (binding: string) =>
      `<bpmn:businessRuleTask id="t"><bpmn:extensionElements>
      <zeebe:calledDecision decisionId="d" resultVariable="r" ${binding} />
      </bpmn:extensionElements></bpmn:businessRuleTask>`
    const form = (binding: string) =>
      `<bpmn:userTask id="t"><bpmn:extensionElements><zeebe:userTask />
      <zeebe:formDefinition formId="f" ${binding} /></bpmn:extensionElements></bpmn:userTask>`
    for (const element of [callActivity, decision, form]) {
      for (
        const binding of [
          `bindingType="deployment"`,
          `bindingType="versionTag" versionTag="v1"`,
          "",
          `bindingType="latest"`
        ]
      ) {
        expect(await problemsOf(model("", element(binding)))).toEqual([])
      }
    }
    expect(await problemsOf(model("", callActivity(`bindingType="newest"`)))).toEqual([
      {
        elementId: "t",
        message: expect.stringContaining(`bindingType "newest" on zeebe:calledElement is not supported`)
      }
    ])
    expect(await problemsOf(model("", form(`bindingType="newest"`)))).toEqual([
      { elementId: "t", message: expect.stringContaining(`bindingType "newest" on zeebe:formDefinition`) }
    ])
  })
})

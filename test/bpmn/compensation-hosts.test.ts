// Regression (issue 10): a compensation boundary event is attached to an activity, like every boundary event. Since
// compiled nodes carry only the fields of their type (a gateway has no compensation handler), one attached to
// something else is refused at deploy, naming the element (before, it was accepted and its handler never ran).
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { definitions } from "../support/BpmnXml.ts"

const model = definitions(`<bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="split" />
    <bpmn:parallelGateway id="split" />
    <bpmn:sequenceFlow id="f2" sourceRef="split" targetRef="end" />
    <bpmn:boundaryEvent id="split-comp" attachedToRef="split"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
    <bpmn:serviceTask id="undo" isForCompensation="true">
      <bpmn:extensionElements><zeebe:taskDefinition type="undo" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:association id="a" associationDirection="One" sourceRef="split-comp" targetRef="undo" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("compensation boundary events", () => {
  it("are refused at deploy on an element that is no activity", async () => {
    const read = await readBpmnXml(model)
    if (!read.ok) throw new Error(JSON.stringify(read.problems))
    const compiled = compileDraft(read.draft)
    expect(compiled.ok).toBe(false)
    expect(!compiled.ok && compiled.problems).toContainEqual({
      elementId: "split-comp",
      message: "boundary event split-comp is attached to parallelGateway split, which cannot have boundary events"
    })
  })
})

// Reading BPMN XML: the document's size limit (5 MB) governs, not the XML parser's buffer — a long attribute (an example
// payload in a real model) is fine — and a sequence flow to a missing element names the missing id.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { definitions } from "../support/BpmnXml.ts"

const model = (attribute: string, target: string) =>
  definitions(`<bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="s"><bpmn:extensionElements><zeebe:properties><zeebe:property name="example" value="${attribute}"/></zeebe:properties></bpmn:extensionElements></bpmn:startEvent>
    <bpmn:endEvent id="e"/>
    <bpmn:sequenceFlow id="f" sourceRef="s" targetRef="${target}"/>
  </bpmn:process>`)

describe("reading BPMN XML", () => {
  it("accepts an attribute value of 140 KB inside the document limit", async () => {
    const read = await readBpmnXml(model("x".repeat(140_000), "e"))
    expect(read.ok).toBe(true)
    if (read.ok) expect(compileDraft(read.draft).ok).toBe(true)
  })

  it("names the missing element a sequence flow points to", async () => {
    const read = await readBpmnXml(model("x", "missing"))
    expect(read.ok).toBe(true)
    const compiled = read.ok ? compileDraft(read.draft) : read
    expect(compiled.ok).toBe(false)
    if (!compiled.ok) {
      expect(compiled.problems).toContainEqual({
        elementId: "f",
        message: "sequence flow f ends at unknown element \"missing\""
      })
    }
  })
})

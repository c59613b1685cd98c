// Large models read and compile whole and right (the compiler looks flows, boundary events and scope members up by
// id, DraftIndex.ts: linear in the model's size, where 25,000 chained gateways took 15 to 35 s when each element
// scanned the whole draft — measured, not asserted here: docs/scaling.md "Session 32"), and a JSON graph past the
// element cap of a BPMN document is refused before it is read.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../src/bpmn/JsonGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { DEFAULT_XML_LIMITS } from "../../src/bpmn/XmlPrecheck.ts"
import { definitions } from "../support/BpmnXml.ts"

/** A start event, `n` elements made by `element` each after the one before, an end event. */
const chain = (n: number, element: (i: number) => ReadonlyArray<object>, extraFlows: (i: number) => Array<object>) => {
  const nodes: Array<object> = [{ id: "s", type: "startEvent" }]
  const flows: Array<object> = []
  for (let i = 0; i < n; i++) {
    nodes.push(...element(i))
    flows.push({ id: `f${i}`, source: i === 0 ? "s" : `n${i - 1}`, target: `n${i}` }, ...extraFlows(i))
  }
  nodes.push({ id: "e", type: "endEvent" })
  flows.push({ id: "fe", source: `n${n - 1}`, target: "e" })
  return { id: "big", nodes, flows }
}

describe("a large model", () => {
  it("of 24,000 chained gateways reads and compiles, as JSON and as XML", async () => {
    const json = chain(24_000, (i) => [{ id: `n${i}`, type: "exclusiveGateway" }], () => [])
    const read = readJsonGraph(json)
    if (!read.ok) throw new Error(JSON.stringify(read.problems.slice(0, 3)))
    const draft = read.draft
    const compiled = compileDraft(draft)
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)))
    expect(compiled.graph.nodes["n23999"]).toMatchObject({ incoming: ["f23999"], outgoing: ["fe"] })

    const xml = definitions(
      `<bpmn:process id="big" isExecutable="true">${draft.nodes.map((n) => `<bpmn:${n.type} id="${n.id}"/>`).join("")}${
        draft.flows.map((f) => `<bpmn:sequenceFlow id="${f.id}" sourceRef="${f.source}" targetRef="${f.target}"/>`)
          .join("")
      }</bpmn:process>`
    )
    const fromXml = await readBpmnXml(xml)
    if (!fromXml.ok) throw new Error(JSON.stringify(fromXml.problems.slice(0, 3)))
    const compiledXml = compileDraft(fromXml.draft)
    if (!compiledXml.ok) throw new Error(JSON.stringify(compiledXml.problems.slice(0, 3)))
    expect(compiledXml.graph.nodes["n23999"]).toMatchObject({ incoming: ["f23999"], outgoing: ["fe"] })
  }, 60_000)

  it("of 8,000 tasks with a boundary event each compiles, each task holding its own boundary", () => {
    const json = chain(8_000, (i) => [
      { id: `n${i}`, type: "serviceTask", properties: { taskType: "work" } },
      { id: `b${i}`, type: "boundaryEvent", properties: { attachedTo: `n${i}`, timeDuration: "PT1H" } },
      { id: `be${i}`, type: "endEvent" }
    ], (i) => [{ id: `bf${i}`, source: `b${i}`, target: `be${i}` }])
    const read = readJsonGraph(json)
    if (!read.ok) throw new Error(JSON.stringify(read.problems.slice(0, 3)))
    const compiled = compileDraft(read.draft)
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)))
    expect(compiled.graph.nodes["n7999"]).toMatchObject({ boundaryIds: ["b7999"], incoming: ["f7999"] })
    expect(compiled.graph.nodes["n4000"]).toMatchObject({ boundaryIds: ["b4000"], incoming: ["f4000"] })
  }, 60_000)

  it("as a JSON graph past the element cap of a BPMN document is refused before it is read", () => {
    const cap = DEFAULT_XML_LIMITS.maxElements
    const flat = (n: number) => ({
      id: "huge",
      nodes: Array.from({ length: n }, (_, i) => ({ id: `t${i}`, type: "task" })),
      flows: []
    })
    const refused = readJsonGraph(flat(cap + 1))
    expect(refused).toEqual({
      ok: false,
      problems: [{ elementId: "process", message: expect.stringContaining(`more than ${cap} nodes and flows`) }]
    })
    // nodes and flows of subprocesses count too
    const nested = {
      id: "nested",
      nodes: [{ id: "sub", type: "subProcess", properties: { ...flat(cap), id: undefined } }],
      flows: []
    }
    expect(readJsonGraph(nested).ok).toBe(false)
    expect(readJsonGraph(flat(cap)).ok).toBe(true)
  })
})

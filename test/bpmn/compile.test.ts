// Deploy-time compilation: every problem listed by element id; hostile XML refused fast.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../src/bpmn/JsonGraph.ts"
import type { StartEventNode } from "../../src/bpmn/ProcessGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { writeBpmnXml } from "../../src/bpmn/WriteBpmnXml.ts"
import { precheckXml } from "../../src/bpmn/XmlPrecheck.ts"
import { fixture } from "../support/Scenario.ts"

const compileJson = (json: unknown) => {
  const read = readJsonGraph(json)
  return read.ok ? compileDraft(read.draft) : read
}

describe("compile", () => {
  it("lists every problem: no start, dangling flow, unsupported type, ungated exclusive flows, bad FEEL, missing task type", () => {
    const result = compileJson({
      id: "bad",
      nodes: [
        { id: "task", type: "serviceTask" },
        { id: "gw", type: "exclusiveGateway" },
        { id: "a", type: "endEvent" },
        { id: "b", type: "endEvent" },
        { id: "cg", type: "complexGateway" }
      ],
      flows: [
        { id: "f1", source: "task", target: "gw" },
        { id: "f2", source: "gw", target: "a", condition: "= x >" },
        { id: "f3", source: "gw", target: "b" },
        { id: "f4", source: "gw", target: "ghost" }
      ]
    })
    if (result.ok) throw new Error("expected problems")
    const problems = result.problems
    const ids = problems.map((p) => p.elementId)
    expect(ids).toEqual(expect.arrayContaining(["bad", "task", "gw", "f2", "f4", "cg"]))
    expect(problems.find((p) => p.elementId === "cg")!.message).toMatch(/complex gateways are not supported/)
    expect(problems.find((p) => p.elementId === "f2")!.message).toMatch(/FEEL syntax error/)
  })

  it("reads timer cycles from XML: on a timer start event they compile; a malformed one is refused by name", async () => {
    const model = (cycle: string) =>
      `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p" isExecutable="true">
      <bpmn:startEvent id="s"><bpmn:timerEventDefinition id="t"><bpmn:timeCycle>${cycle}</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>
      <bpmn:endEvent id="e"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="e"/>
      </bpmn:process></bpmn:definitions>`
    for (const cycle of ["R/PT1M", "R3/2026-01-01T09:00:00Z/P1D", "0 0 9 * * MON-FRI"]) {
      const read = await readBpmnXml(model(cycle))
      if (!read.ok) throw new Error(JSON.stringify(read.problems))
      const compiled = compileDraft(read.draft)
      expect(compiled.ok, cycle).toBe(true)
      if (compiled.ok) {
        expect(compiled.graph.timerStarts).toEqual([{ nodeId: "s", timer: { kind: "cycle", expression: cycle } }])
      }
    }
    const read = await readBpmnXml(model("every now and then"))
    const compiled = read.ok ? compileDraft(read.draft) : read
    expect(compiled.ok).toBe(false)
    expect(JSON.stringify(compiled)).toMatch(/neither an ISO 8601 repeating interval/)
  })

  it("refuses DOCTYPE, deep nesting, huge input and malformed XML without hanging", () => {
    expect(precheckXml(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`)[0]!.message).toMatch(/DOCTYPE/)
    expect(precheckXml(`${"<a>".repeat(300)}${"</a>".repeat(300)}`)[0]!.message).toMatch(/nested/)
    expect(precheckXml("<a>" + "x".repeat(6 * 1024 * 1024) + "</a>")[0]!.message).toMatch(/exceeds/)
    expect(precheckXml("<a><b></a>")[0]!.message).toMatch(/well-formed/)
    const t0 = performance.now()
    precheckXml(`<r>${"<e/>".repeat(60_000)}</r>`)
    expect(performance.now() - t0).toBeLessThan(5_000)
  })

  it("round-trips a JSON graph through generated XML to the same graph", async () => {
    const json = {
      id: "rt",
      name: "Round trip",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "t",
          type: "serviceTask",
          properties: {
            taskType: "x",
            retries: 5,
            headers: { h: "v" },
            inputMappings: [{ source: "= a", target: "b" }],
            multiInstance: {
              sequential: true,
              inputCollection: "= xs",
              inputElement: "x",
              outputCollection: "ys",
              outputElement: "= y"
            }
          }
        },
        { id: "u", type: "userTask", properties: { assignee: "= owner", candidateGroups: ["g1", "g2"], formKey: "f" } },
        { id: "gw", type: "exclusiveGateway" },
        { id: "m", type: "intermediateCatchEvent", properties: { messageName: "go", correlationKey: "= key" } },
        { id: "r", type: "receiveTask", properties: { messageName: "again", correlationKey: "fixed" } },
        {
          id: "rb",
          type: "boundaryEvent",
          properties: { attachedTo: "r", cancelActivity: false, timeDuration: "PT1H" }
        },
        { id: "eb", type: "boundaryEvent", properties: { attachedTo: "t", errorCode: "E1" } },
        { id: "rbEnd", type: "endEvent" },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            inputMappings: [{ source: "= 1", target: "n" }],
            nodes: [{ id: "ss", type: "startEvent" }, {
              id: "st",
              type: "scriptTask",
              properties: { expression: "= n + 1", resultVariable: "m" }
            }, { id: "se", type: "endEvent" }],
            flows: [{ id: "sf1", source: "ss", target: "st" }, { id: "sf2", source: "st", target: "se" }]
          }
        },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent", properties: { terminate: true } }
      ],
      flows: [
        { id: "f1", source: "start", target: "t" },
        { id: "f2", source: "t", target: "u" },
        { id: "f3", source: "u", target: "gw" },
        { id: "f4", source: "gw", target: "m", condition: "= ok" },
        { id: "f5", source: "gw", target: "e2", default: true },
        { id: "f6", source: "m", target: "r" },
        { id: "f7", source: "r", target: "sub" },
        { id: "f9", source: "rb", target: "rbEnd" },
        { id: "f10", source: "eb", target: "rbEnd" },
        { id: "f8", source: "sub", target: "e1" }
      ]
    }
    const first = compileJson(json)
    if (!first.ok) throw new Error("invalid")
    const xml = await writeBpmnXml(first.graph)
    const read = await readBpmnXml(xml)
    if (!read.ok) throw new Error(JSON.stringify(read.problems))
    const second = compileDraft(read.draft)
    expect(second).toEqual(first)
  })

  it("round-trips event subprocesses, conditional events and throw events through generated XML", async () => {
    const espOf = (id: string, start: Record<string, unknown>) => ({
      id,
      type: "subProcess",
      properties: {
        triggeredByEvent: true,
        nodes: [{ id: `${id}-s`, type: "startEvent", properties: start }, { id: `${id}-e`, type: "endEvent" }],
        flows: [{ id: `${id}-f`, source: `${id}-s`, target: `${id}-e` }]
      }
    })
    const json = {
      id: "events",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "cond", type: "intermediateCatchEvent", properties: { condition: "= x > 1" } },
        {
          id: "sig",
          type: "intermediateThrowEvent",
          properties: { signalName: "ping", inputMappings: [{ source: "= x", target: "x" }] }
        },
        { id: "msg", type: "intermediateThrowEvent", properties: { messageName: "mail", taskType: "send-mail" } },
        { id: "none", type: "intermediateThrowEvent" },
        { id: "jump", type: "intermediateThrowEvent", properties: { linkName: "L" } },
        { id: "land", type: "intermediateCatchEvent", properties: { linkName: "L" } },
        { id: "u", type: "userTask" },
        {
          id: "ub",
          type: "boundaryEvent",
          properties: { attachedTo: "u", cancelActivity: false, condition: "= late" }
        },
        { id: "ube", type: "endEvent", properties: { signalName: "late" } },
        { id: "end", type: "endEvent" },
        espOf("onMessage", { messageName: "m", correlationKey: "= k", interrupting: false }),
        espOf("onTimer", { timeDuration: "PT5M" }),
        espOf("onSignal", { signalName: "s", interrupting: false }),
        espOf("onError", { errorCode: "E" }),
        espOf("onAnyError", { error: true }),
        espOf("onCondition", { condition: "= y" }),
        espOf("onEscalation", { escalationCode: "ESC", interrupting: false }),
        { id: "escalate", type: "intermediateThrowEvent", properties: { escalationCode: "ESC" } }
      ],
      flows: [
        { id: "f1", source: "start", target: "cond" },
        { id: "f2", source: "cond", target: "sig" },
        { id: "f3", source: "sig", target: "msg" },
        { id: "f4", source: "msg", target: "jump" },
        { id: "f4b", source: "land", target: "escalate" },
        { id: "f4c", source: "escalate", target: "none" },
        { id: "f5", source: "none", target: "u" },
        { id: "f6", source: "u", target: "end" },
        { id: "f7", source: "ub", target: "ube" }
      ]
    }
    const first = compileJson(json)
    if (!first.ok) throw new Error(JSON.stringify(first.problems))
    expect(first.graph.eventStartIds).toEqual([
      "onMessage-s",
      "onTimer-s",
      "onSignal-s",
      "onError-s",
      "onAnyError-s",
      "onCondition-s",
      "onEscalation-s"
    ])
    expect((first.graph.nodes["onMessage-s"] as StartEventNode).eventStart).toEqual({
      subprocessId: "onMessage",
      interrupting: false
    })
    expect((first.graph.nodes["onError-s"] as StartEventNode).errorCatch).toEqual({ errorCode: "E" })
    const read = await readBpmnXml(await writeBpmnXml(first.graph))
    if (!read.ok) throw new Error(JSON.stringify(read.problems))
    expect(compileDraft(read.draft)).toEqual(first)
  })

  it("round-trips a timer start event and refuses a FEEL timer on a start event", async () => {
    const json = {
      id: "ts",
      nodes: [{ id: "tick", type: "startEvent", properties: { timeDate: "2027-01-01T00:00:00Z" } }, {
        id: "e",
        type: "endEvent"
      }],
      flows: [{ id: "f", source: "tick", target: "e" }]
    }
    const first = compileJson(json)
    if (!first.ok) throw new Error(JSON.stringify(first.problems))
    expect(first.graph.timerStarts).toEqual([{
      nodeId: "tick",
      timer: { kind: "date", expression: "2027-01-01T00:00:00Z" }
    }])
    const read = await readBpmnXml(await writeBpmnXml(first.graph))
    if (!read.ok) throw new Error(JSON.stringify(read.problems))
    expect(compileDraft(read.draft)).toEqual(first)
    const feel = compileJson({
      ...json,
      nodes: [{ id: "tick", type: "startEvent", properties: { timeDuration: "= x" } }, json.nodes[1]]
    })
    expect(JSON.stringify(feel)).toMatch(/literal date-time or duration/)
  })

  it("refuses flows that cross a subprocess boundary and subprocesses without a start event", () => {
    const result = compileJson({
      id: "x",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "sub", type: "subProcess", properties: { nodes: [{ id: "inner", type: "task" }], flows: [] } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "sub" }, { id: "f2", source: "sub", target: "e" }, {
        id: "bad",
        source: "s",
        target: "inner"
      }]
    })
    expect(JSON.stringify(result)).toMatch(/crosses a subprocess boundary/)
    expect(JSON.stringify(result)).toMatch(/subprocess sub has no start event/)
  })

  it("reads the Camunda Modeler fixtures", async () => {
    for (const name of ["service-task.bpmn", "approval.bpmn", "message-wait.bpmn"]) {
      const read = await readBpmnXml(fixture(name))
      expect(read.ok && compileDraft(read.draft).ok, name).toBe(true)
    }
  })
})

// POST /analysis/variables: what a model reads and writes, and the warnings that follow.
import { describe, expect, it } from "vitest"
import { freeNames } from "../../src/engine/VariableAnalysis.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

describe("variable analysis", () => {
  it("finds free names of FEEL expressions, not bound iteration names or function names", () => {
    expect(freeNames("= sum(for x in items return x.price) > limit and some y in ys satisfies y > a.b")).toEqual([
      "items",
      "limit",
      "ys",
      "a"
    ])
    expect(freeNames("literal text")).toEqual([])
  })

  it("reports reads, writes, expected inputs and warnings for a JSON graph and for XML", async () => {
    const owner = await (await givenTenant()).owner()
    const analysis = (await owner.post("/analysis/variables", {
      graph: {
        id: "analysed",
        nodes: [
          { id: "s", type: "startEvent" },
          { id: "calc", type: "scriptTask", properties: { expression: "= amount * rate", resultVariable: "total" } },
          { id: "gw", type: "exclusiveGateway" },
          { id: "big", type: "userTask", properties: { assignee: "= manager" } },
          { id: "note", type: "scriptTask", properties: { expression: "= \"ok\"", resultVariable: "unused" } },
          { id: "e1", type: "endEvent" },
          { id: "e2", type: "endEvent" }
        ],
        flows: [
          { id: "f1", source: "s", target: "calc" },
          { id: "f2", source: "calc", target: "gw" },
          { id: "f3", source: "gw", target: "big", condition: "= total > 1000" },
          { id: "f4", source: "gw", target: "note", default: true },
          { id: "f5", source: "big", target: "e1" },
          { id: "f6", source: "note", target: "e2" }
        ]
      }
    })).ok()
    expect(analysis.processKey).toBe("analysed")
    expect(analysis.expectedInputs).toEqual(["amount", "manager", "rate"])
    expect(analysis.variables.find((v: { name: string }) => v.name === "total")).toEqual({
      name: "total",
      readBy: ["f3"],
      writtenBy: ["calc"]
    })
    expect(analysis.openResults).toEqual(["big"])
    expect(analysis.warnings).toContainEqual(
      expect.objectContaining({ elementId: "note", variable: "unused", kind: "WRITTEN_NOT_READ" })
    )
    expect(analysis.warnings).toContainEqual(
      expect.objectContaining({ elementId: "calc", variable: "amount", kind: "READ_NOT_WRITTEN" })
    )

    const xml = (await owner.post("/analysis/variables", { xml: fixture("message-wait.bpmn") })).ok()
    expect(xml.variables.length).toBeGreaterThan(0)
    ;(await owner.post("/analysis/variables", { xml: "<nope" })).fails(400, "VALIDATION_ERROR")
    ;(await owner.post("/analysis/variables", {})).fails(400, "VALIDATION_ERROR")
  })

  it("output mapping sources are reads of the element", async () => {
    const owner = await (await givenTenant()).owner()
    const analysis = (await owner.post("/analysis/variables", {
      graph: {
        id: "outputs-read",
        nodes: [
          { id: "s", type: "startEvent" },
          {
            id: "work",
            type: "serviceTask",
            properties: {
              taskType: "t",
              inputMappings: [{ source: "= amount * 2", target: "doubled" }],
              outputMappings: [{ source: "= doubled + bonus", target: "total" }]
            }
          },
          { id: "e", type: "endEvent" }
        ],
        flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
      }
    })).ok()
    const byName = Object.fromEntries(
      analysis.variables.map((v: { name: string; readBy: Array<string> }) => [v.name, v.readBy])
    )
    expect(byName["doubled"]).toEqual(["work"])
    expect(byName["bonus"]).toEqual(["work"])
    expect(byName["amount"]).toEqual(["work"])
  })
})

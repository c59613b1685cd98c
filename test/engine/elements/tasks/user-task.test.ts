// Unit tests of the pure core: a user task's priority and schedule (literals, expressions, and the incident when an
// expression's value cannot be one).
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../../../src/bpmn/JsonGraph.ts"
import { scenario } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

const withTask = (properties: Record<string, unknown>) => ({
  id: "p",
  nodes: [{ id: "start", type: "startEvent" }, { id: "t", type: "userTask", properties }, {
    id: "end",
    type: "endEvent"
  }],
  flows: [{ id: "f1", source: "start", target: "t" }, { id: "f2", source: "t", target: "end" }]
})

describe("user task priority and schedule", () => {
  it("defaults to priority 50 and no dates", () => {
    const s = scenario(graphOf(withTask({})))
    s.start()
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({
      priority: 50,
      dueDate: null,
      followUpDate: null
    })
  })

  it("reads literals and FEEL expressions; dates are normalised to UTC", () => {
    const s = scenario(graphOf(withTask({
      priority: "= urgency * 10",
      dueDate: "2026-12-01T10:00:00+02:00",
      followUpDate: "= date and time(\"2026-11-30T09:00:00Z\") - duration(\"P1D\")"
    })))
    s.start({ urgency: 7 })
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({
      priority: 70,
      dueDate: "2026-12-01T08:00:00.000Z",
      followUpDate: "2026-11-29T09:00:00.000Z"
    })
  })

  it("an expression whose value is not a priority or a date is an incident, not a default", () => {
    const s = scenario(graphOf(withTask({ priority: "= urgency * 10" })))
    s.start({ urgency: 20 })
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toBeUndefined()
    expect(s.events.find((e) => e.type === "IncidentRaised")).toMatchObject({
      incidentType: "EXPRESSION_ERROR",
      message: expect.stringContaining("priority 200 is not an integer from 0 to 100")
    })
    const dated = scenario(graphOf(withTask({ dueDate: "= \"next week\"" })))
    dated.start()
    expect(dated.events.find((e) => e.type === "IncidentRaised")).toMatchObject({
      message: expect.stringContaining("dueDate \"next week\" is not an ISO 8601 date-time")
    })
  })

  it("literals that cannot be read and expressions that do not parse are refused at deploy, by field", () => {
    const problems = (properties: Record<string, unknown>) => {
      const read = readJsonGraph(withTask(properties))
      if (!read.ok) throw new Error(JSON.stringify(read.problems))
      const compiled = compileDraft(read.draft)
      return compiled.ok ? [] : compiled.problems.map((p) => p.message)
    }
    expect(problems({ priority: 101 })).toEqual([expect.stringContaining("priority \"101\" is not an integer")])
    expect(problems({ priority: "high" })).toEqual([expect.stringContaining("priority \"high\"")])
    expect(problems({ dueDate: "2026-12-01" })).toEqual([expect.stringContaining("dueDate \"2026-12-01\"")])
    expect(problems({ followUpDate: "= (" })).toEqual([expect.stringContaining("followUpDate: FEEL syntax error")])
    expect(problems({ priority: 0, dueDate: "2026-12-01T00:00:00Z" })).toEqual([])
  })
})

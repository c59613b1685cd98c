// Unit tests of the pure core: service tasks and variables.
import { describe, expect, it } from "vitest"
import { scenario, serviceTask } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("service tasks and variables", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      serviceTask("a", "work", {
        inputMappings: [{ source: "= amount * 2", target: "doubled" }],
        outputMappings: [{ source: "= result + 1", target: "total" }]
      }),
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "a" }, { id: "f2", source: "a", target: "end" }]
  })

  it("creates a job with input mappings applied, and output mappings on completion", () => {
    const s = scenario(graph)
    s.start({ amount: 21 })
    const [job] = s.waiting("job")
    // the job records its own variables (its input mappings' results); its worker gets all it sees
    const created = s.events.find((e) => e.type === "JobCreated")
    expect(created).toMatchObject({ jobType: "work", variables: { doubled: 42 } })
    expect((created as { variables: object }).variables).not.toHaveProperty("amount")
    expect(s.jobVariables(job!.id)).toEqual({ amount: 21, doubled: 42 })
    s.run({ type: "CompleteJob", jobId: job!.id, variables: { result: 9 } })
    expect(s.state.status).toBe("COMPLETED")
    expect(s.state.variables).toEqual({ amount: 21, total: 10 })
  })

  it("is deterministic: the same commands give the same events", () => {
    const a = scenario(graph)
    const b = scenario(graph)
    a.start({ amount: 1 })
    b.start({ amount: 1 })
    a.run({ type: "CompleteJob", jobId: a.waiting("job")[0]!.id, variables: { result: 1 } })
    b.run({ type: "CompleteJob", jobId: b.waiting("job")[0]!.id, variables: { result: 1 } })
    expect(a.events).toEqual(b.events)
  })

  it("rejects an unknown job and changes nothing", () => {
    const s = scenario(graph)
    s.start()
    const before = s.state
    const result = s.run({ type: "CompleteJob", jobId: "nope", variables: {} })
    expect(result).toMatchObject({ ok: false, reason: "NOT_FOUND" })
    expect(s.state).toBe(before)
  })
})

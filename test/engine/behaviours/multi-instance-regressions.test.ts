// Unit tests of the pure core: regressions.
import { describe, expect, it } from "vitest"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("regressions", () => {
  it("an iteration that returns a variable named like the output collection does not wipe earlier results", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "each",
          type: "serviceTask",
          properties: {
            taskType: "each",
            multiInstance: {
              inputCollection: "= [1, 2]",
              inputElement: "item",
              outputCollection: "results",
              outputElement: "= item"
            }
          }
        },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "each" }, { id: "f2", source: "each", target: "end" }]
    }))
    s.start()
    const [first, second] = s.waiting("job")
    s.run({ type: "CompleteJob", jobId: first!.id, variables: { results: [null, null] } })
    s.run({ type: "CompleteJob", jobId: second!.id, variables: { results: [null, null] } })
    expect(s.state.variables["results"]).toEqual([1, 2])
  })
})

// Unit tests of the pure core: FEEL in processes.
import { describe, expect, it } from "vitest"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("FEEL in processes", () => {
  it("computes with exact decimals, like decisions: 0.1 + 0.2 = 0.3 takes the gateway's first flow", () => {
    const graph = graphOf({
      id: "decimals",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "calc", type: "scriptTask", properties: { expression: "= price * quantity", resultVariable: "total" } },
        { id: "gw", type: "exclusiveGateway" },
        { id: "exact", type: "endEvent" },
        { id: "binary", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "calc" },
        { id: "f2", source: "calc", target: "gw" },
        { id: "f3", source: "gw", target: "exact", condition: "= a + b = 0.3" },
        { id: "f4", source: "gw", target: "binary", default: true }
      ]
    })
    const run = scenario(graph)
    const started = run.start({ a: 0.1, b: 0.2, price: 0.1, quantity: 3 })
    expect(started.ok).toBe(true)
    expect(run.events.some((e) => e.type === "ElementCompleted" && e.nodeId === "exact")).toBe(true)
    expect(run.state.variables["total"]).toBe(0.3)
  })
})

// Unit tests of the pure core: inclusive gateway.
import { describe, expect, it } from "vitest"
import { scenario, serviceTask } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("inclusive gateway", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "fork", type: "inclusiveGateway" },
      serviceTask("a", "a"),
      serviceTask("b", "b"),
      serviceTask("c", "c"),
      { id: "join", type: "inclusiveGateway" },
      serviceTask("after", "after"),
      { id: "end", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "start", target: "fork" },
      { id: "fa", source: "fork", target: "a", condition: "= wantA" },
      { id: "fb", source: "fork", target: "b", condition: "= wantB" },
      { id: "fc", source: "fork", target: "c", default: true },
      { id: "ja", source: "a", target: "join" },
      { id: "jb", source: "b", target: "join" },
      { id: "jc", source: "c", target: "join" },
      { id: "f1", source: "join", target: "after" },
      { id: "f2", source: "after", target: "end" }
    ]
  })
  const complete = (s: ReturnType<typeof scenario>, node: string) =>
    s.run({ type: "CompleteJob", jobId: s.waiting("job").find((j) => j.node === node)!.id, variables: {} })

  it("forks on every true condition and joins only the paths that were taken", () => {
    const s = scenario(graph)
    s.start({ wantA: true, wantB: true })
    expect(s.waiting("job").map((j) => j.node).sort()).toEqual(["a", "b"])
    complete(s, "a")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["b"])
    complete(s, "b")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("does not wait for a path that was not taken", () => {
    const s = scenario(graph)
    s.start({ wantA: true, wantB: false })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["a"])
    complete(s, "a")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("takes the default flow when no condition holds", () => {
    const s = scenario(graph)
    s.start({ wantA: false, wantB: false })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["c"])
    complete(s, "c")
    complete(s, "after")
    expect(s.state.status).toBe("COMPLETED")
  })
})

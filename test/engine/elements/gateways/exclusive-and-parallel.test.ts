// Unit tests of the pure core: gateways.
import { describe, expect, it } from "vitest"
import { scenario, serviceTask } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("gateways", () => {
  const branching = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "gw", type: "exclusiveGateway" },
      { id: "big", type: "endEvent" },
      { id: "small", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "start", target: "gw" },
      { id: "toBig", source: "gw", target: "big", condition: "= amount > 100" },
      { id: "toSmall", source: "gw", target: "small", condition: "= amount <= 100" }
    ]
  })

  it("exclusive: takes the first true condition", () => {
    const s = scenario(branching)
    s.start({ amount: 500 })
    expect(s.events.filter((e) => e.type === "FlowTaken").map((e) => (e as { flowId: string }).flowId)).toEqual([
      "f0",
      "toBig"
    ])
    expect(s.state.status).toBe("COMPLETED")
  })

  it("exclusive: no true condition and no default raises an incident; the token waits", () => {
    const s = scenario(branching)
    s.start({})
    expect(s.state.status).toBe("ACTIVE")
    const incidents = Object.values(s.state.incidents)
    expect(incidents).toHaveLength(1)
    expect(incidents[0]).toMatchObject({ nodeId: "gw", type: "CONDITION_ERROR" })
  })

  it("parallel: forks, and the join waits for every incoming flow", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "fork", type: "parallelGateway" },
        serviceTask("a", "a"),
        serviceTask("b", "b"),
        { id: "join", type: "parallelGateway" },
        serviceTask("after", "after"),
        { id: "end", type: "endEvent" }
      ],
      flows: [
        { id: "f0", source: "start", target: "fork" },
        { id: "fa", source: "fork", target: "a" },
        { id: "fb", source: "fork", target: "b" },
        { id: "ja", source: "a", target: "join" },
        { id: "jb", source: "b", target: "join" },
        { id: "f1", source: "join", target: "after" },
        { id: "f2", source: "after", target: "end" }
      ]
    }))
    s.start()
    const jobs = s.waiting("job")
    expect(jobs.map((j) => j.node).sort()).toEqual(["a", "b"])
    s.run({ type: "CompleteJob", jobId: jobs.find((j) => j.node === "a")!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["b"])
    s.run({ type: "CompleteJob", jobId: jobs.find((j) => j.node === "b")!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
  })
})

// Unit tests of the pure core: embedded subprocess.
import { describe, expect, it } from "vitest"
import { scenario, serviceTask } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("embedded subprocess", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      {
        id: "sub",
        type: "subProcess",
        properties: {
          inputMappings: [{ source: "= 0", target: "attempts" }],
          outputMappings: [{ source: "= attempts", target: "attemptsUsed" }],
          nodes: [{ id: "subStart", type: "startEvent" }, serviceTask("inner", "inner"), {
            id: "subEnd",
            type: "endEvent"
          }],
          flows: [{ id: "s1", source: "subStart", target: "inner" }, { id: "s2", source: "inner", target: "subEnd" }]
        }
      },
      serviceTask("after", "after"),
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "sub" }, { id: "f2", source: "sub", target: "after" }, {
      id: "f3",
      source: "after",
      target: "end"
    }]
  })

  it("runs in its own scope: local variables stay inside, new ones go to the root, output mappings carry values out", () => {
    const s = scenario(graph)
    s.start({ order: 1 })
    const [inner] = s.waiting("job")
    expect(inner!.node).toBe("inner")
    expect(s.jobVariables(inner!.id)).toMatchObject({ order: 1, attempts: 0 })
    // attempts exists in the subprocess scope: updated there; result is new: goes to the root
    s.run({ type: "CompleteJob", jobId: inner!.id, variables: { attempts: 3, result: "ok" } })
    expect(s.state.variables).toEqual({ order: 1, result: "ok", attemptsUsed: 3 })
    expect(s.state.scopes).toEqual({})
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("cancel closes the subprocess scope and withdraws its jobs", () => {
    const s = scenario(graph)
    s.start()
    s.run({ type: "CancelInstance" })
    expect(s.state).toMatchObject({ status: "CANCELED", scopes: {} })
    expect(s.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["JobCanceled", "ScopeClosed", "InstanceCanceled"])
    )
  })

  it("a terminate end event inside ends only the subprocess", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            nodes: [
              { id: "ss", type: "startEvent" },
              { id: "fork", type: "parallelGateway" },
              serviceTask("slow", "slow"),
              { id: "stop", type: "endEvent", properties: { terminate: true } },
              { id: "se", type: "endEvent" }
            ],
            flows: [{ id: "a", source: "ss", target: "fork" }, { id: "b", source: "fork", target: "slow" }, {
              id: "c",
              source: "fork",
              target: "stop"
            }, { id: "d", source: "slow", target: "se" }]
          }
        },
        serviceTask("after", "after"),
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "sub" }, { id: "f2", source: "sub", target: "after" }, {
        id: "f3",
        source: "after",
        target: "end"
      }]
    }))
    s.start()
    expect(s.state.status).toBe("ACTIVE")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })
})

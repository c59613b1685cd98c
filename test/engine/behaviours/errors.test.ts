// Unit tests of the pure core: error events.
import { describe, expect, it } from "vitest"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("error events", () => {
  const graph = (catcher: Record<string, unknown> | null, inner: "job" | "errorEnd" = "job") =>
    graphOf({
      id: "p",
      nodes: [
        { id: "s", type: "startEvent" },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            nodes: [
              { id: "is", type: "startEvent" },
              { id: "pay", type: "serviceTask", properties: { taskType: "pay" } },
              ...(inner === "errorEnd"
                ? [{ id: "fail", type: "endEvent", properties: { errorCode: "DECLINED" } }]
                : [{ id: "ie", type: "endEvent" }])
            ],
            flows: [{ id: "i1", source: "is", target: "pay" }, {
              id: "i2",
              source: "pay",
              target: inner === "errorEnd" ? "fail" : "ie"
            }]
          }
        },
        ...(catcher === null
          ? []
          : [{ id: "caught", type: "boundaryEvent", properties: { attachedTo: "sub", error: true, ...catcher } }]),
        { id: "handle", type: "serviceTask", properties: { taskType: "handle" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "sub" },
        { id: "f2", source: "sub", target: "e1" },
        ...(catcher === null ? [] : [{ id: "f3", source: "caught", target: "handle" }]),
        { id: "f4", source: "handle", target: "e2" }
      ]
    })

  it("a job's error is caught by the matching boundary on the enclosing subprocess", () => {
    const s = scenario(graph({ errorCode: "DECLINED" }))
    s.start()
    s.run({
      type: "ThrowError",
      jobId: s.waiting("job")[0]!.id,
      errorCode: "DECLINED",
      errorMessage: "card declined",
      variables: { why: "limit" }
    })
    expect(s.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["JobErrorThrown", "ErrorCaught", "ScopeClosed"])
    )
    expect(s.waiting("job").map((j) => j.node)).toEqual(["handle"])
    expect(s.state.variables).toMatchObject({ why: "limit" })
  })

  it("a boundary without a code catches every error; an uncaught error is an incident", () => {
    const all = scenario(graph({}))
    all.start()
    all.run({
      type: "ThrowError",
      jobId: all.waiting("job")[0]!.id,
      errorCode: "ANYTHING",
      errorMessage: "",
      variables: {}
    })
    expect(all.waiting("job").map((j) => j.node)).toEqual(["handle"])
    const other = scenario(graph({ errorCode: "DECLINED" }))
    other.start()
    other.run({
      type: "ThrowError",
      jobId: other.waiting("job")[0]!.id,
      errorCode: "TIMEOUT",
      errorMessage: "gateway",
      variables: {}
    })
    expect(Object.values(other.state.incidents)[0]).toMatchObject({ nodeId: "pay", type: "UNHANDLED_ERROR_EVENT" })
  })

  it("an error end event inside a subprocess throws to the subprocess's boundary", () => {
    const s = scenario(graph({ errorCode: "DECLINED" }, "errorEnd"))
    s.start()
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["handle"])
    expect(s.state.scopes).toEqual({})
  })
})

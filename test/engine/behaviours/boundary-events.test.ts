// Unit tests of the pure core: boundary events.
import { describe, expect, it } from "vitest"
import type { InstanceEvent } from "../../../src/engine/InstanceState.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("boundary events", () => {
  const withBoundary = (boundary: Record<string, unknown>, hostType = "serviceTask") =>
    graphOf({
      id: "p",
      nodes: [
        { id: "s", type: "startEvent" },
        hostType === "serviceTask"
          ? { id: "host", type: "serviceTask", properties: { taskType: "work" } }
          : {
            id: "host",
            type: "subProcess",
            properties: {
              nodes: [{ id: "is", type: "startEvent" }, {
                id: "inner",
                type: "serviceTask",
                properties: { taskType: "inner" }
              }, { id: "ie", type: "endEvent" }],
              flows: [{ id: "i1", source: "is", target: "inner" }, { id: "i2", source: "inner", target: "ie" }]
            }
          },
        { id: "b", type: "boundaryEvent", properties: { attachedTo: "host", ...boundary } },
        { id: "side", type: "serviceTask", properties: { taskType: "side" } },
        { id: "done", type: "endEvent" },
        { id: "sideDone", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "host" },
        { id: "f2", source: "host", target: "done" },
        { id: "f3", source: "b", target: "side" },
        { id: "f4", source: "side", target: "sideDone" }
      ]
    })
  const opened = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "BoundaryOpened" }> => e.type === "BoundaryOpened")

  it("interrupting message: the task is withdrawn and the boundary path runs", () => {
    const s = scenario(withBoundary({ messageName: "cancel-order", correlationKey: "= orderId" }))
    s.start({ orderId: "O-1" })
    const [armed] = opened(s)
    expect(armed).toMatchObject({ kind: "message", name: "cancel-order", correlationKey: "O-1", nodeId: "b" })
    s.run({ type: "CorrelateMessage", subscriptionId: armed!.subscriptionId, variables: { reason: "customer" } })
    expect(s.events.map((e) => e.type)).toEqual(expect.arrayContaining(["JobCanceled", "BoundaryTriggered"]))
    expect(s.waiting("job").map((j) => j.node)).toEqual(["side"])
    expect(s.state.variables).toMatchObject({ reason: "customer" })
    expect(s.state.boundaries).toEqual({})
  })

  it("non-interrupting timer: a second path starts and the task keeps running; completing it disarms the rest", () => {
    const s = scenario(withBoundary({ timeDuration: "PT1H", cancelActivity: false }))
    s.start()
    const [armed] = opened(s)
    s.run({ type: "FireTimer", subscriptionId: armed!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node).sort()).toEqual(
      ["side", "work"].map((t) => (t === "work" ? "host" : t)).sort()
    )
    const host = s.waiting("job").find((j) => j.node === "host")!
    s.run({ type: "CompleteJob", jobId: host.id, variables: {} })
    expect(s.state.status).toBe("ACTIVE")
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
  })

  it("non-interrupting timer cycle: fires again at each occurrence until R<n> is used up", () => {
    const s = scenario(withBoundary({ timeCycle: "R2/PT10M", cancelActivity: false }))
    s.start()
    const [first] = opened(s)
    expect(first).toMatchObject({ kind: "timer", dueAt: new Date(10 * 60_000).toISOString() })
    s.run({ type: "FireTimer", subscriptionId: first!.subscriptionId })
    const [, second] = opened(s)
    expect(second).toMatchObject({ kind: "timer", fired: 1, dueAt: new Date(20 * 60_000).toISOString() })
    s.run({ type: "FireTimer", subscriptionId: second!.subscriptionId })
    expect(opened(s)).toHaveLength(2) // R2: no third occurrence
    expect(s.waiting("job").map((j) => j.node).sort()).toEqual(["host", "side", "side"])
    expect(s.state.boundaries).toEqual({})
  })

  it("a timer cycle on an interrupting boundary is refused at deploy", () => {
    expect(() => withBoundary({ timeCycle: "R2/PT10M" })).toThrow(/timer cycle \(timeCycle\) repeats/)
  })

  it("interrupting timer on a subprocess ends everything inside it", () => {
    const s = scenario(withBoundary({ timeDuration: "PT5M" }, "subProcess"))
    s.start()
    expect(s.waiting("job").map((j) => j.node)).toEqual(["inner"])
    s.run({ type: "FireTimer", subscriptionId: opened(s)[0]!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["side"])
    expect(s.state.scopes).toEqual({})
    expect(s.events.map((e) => e.type)).toContain("JobCanceled")
  })

  it("a host that completes normally disarms its boundary events", () => {
    const s = scenario(withBoundary({ signalName: "stop" }))
    s.start()
    const [armed] = opened(s)
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
    expect(s.run({ type: "TriggerSignal", subscriptionId: armed!.subscriptionId, variables: {} })).toMatchObject({
      ok: false
    })
  })
})

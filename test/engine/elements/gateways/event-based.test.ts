// Unit tests of the pure core: event-based gateway.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../../../src/bpmn/JsonGraph.ts"
import type { InstanceEvent } from "../../../../src/engine/InstanceState.ts"
import { scenario } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("event-based gateway", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "s", type: "startEvent" },
      { id: "gw", type: "eventBasedGateway" },
      { id: "paid", type: "intermediateCatchEvent", properties: { messageName: "paid", correlationKey: "= orderId" } },
      { id: "late", type: "intermediateCatchEvent", properties: { timeDuration: "PT1H" } },
      { id: "ship", type: "serviceTask", properties: { taskType: "ship" } },
      { id: "cancel", type: "serviceTask", properties: { taskType: "cancel" } },
      { id: "e1", type: "endEvent" },
      { id: "e2", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "s", target: "gw" },
      { id: "f1", source: "gw", target: "paid" },
      { id: "f2", source: "gw", target: "late" },
      { id: "f3", source: "paid", target: "ship" },
      { id: "f4", source: "late", target: "cancel" },
      { id: "f5", source: "ship", target: "e1" },
      { id: "f6", source: "cancel", target: "e2" }
    ]
  })
  const armed = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "BoundaryOpened" }> => e.type === "BoundaryOpened")

  it("the first event wins and the others are withdrawn", () => {
    const s = scenario(graph)
    s.start({ orderId: "X" })
    const [message, timer] = armed(s)
    expect(message).toMatchObject({ kind: "message", name: "paid", correlationKey: "X", viaGateway: true })
    expect(timer).toMatchObject({ kind: "timer" })
    s.run({ type: "CorrelateMessage", subscriptionId: message!.subscriptionId, variables: { amount: 5 } })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["ship"])
    expect(s.state.boundaries).toEqual({})
    expect(s.run({ type: "FireTimer", subscriptionId: timer!.subscriptionId })).toMatchObject({
      ok: false,
      reason: "NOT_FOUND"
    })
    expect(s.state.variables).toMatchObject({ amount: 5 })
  })

  it("the timer path when the message does not come", () => {
    const s = scenario(graph)
    s.start({ orderId: "Y" })
    s.run({ type: "FireTimer", subscriptionId: armed(s)[1]!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["cancel"])
  })

  it("refuses a gateway whose flows do not lead to catch events", () => {
    const read = readJsonGraph({
      id: "bad",
      nodes: [{ id: "s", type: "startEvent" }, { id: "gw", type: "eventBasedGateway" }, { id: "a", type: "endEvent" }, {
        id: "b",
        type: "endEvent"
      }],
      flows: [{ id: "f0", source: "s", target: "gw" }, { id: "f1", source: "gw", target: "a" }, {
        id: "f2",
        source: "gw",
        target: "b"
      }]
    })
    if (!read.ok) throw new Error("unreadable")
    expect(JSON.stringify(compileDraft(read.draft))).toMatch(/must lead to a message, signal or timer catch event/)
  })
})

// Unit tests of the pure core: waiting for messages.
import { describe, expect, it } from "vitest"
import type { InstanceEvent } from "../../../../src/engine/InstanceState.ts"
import { scenario } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("waiting for messages", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      {
        id: "paid",
        type: "intermediateCatchEvent",
        properties: { messageName: "payment", correlationKey: "= orderId" }
      },
      {
        id: "confirm",
        type: "receiveTask",
        properties: { messageName: "confirmation", correlationKey: "= \"C-\" + orderId" }
      },
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "paid" }, { id: "f2", source: "paid", target: "confirm" }, {
      id: "f3",
      source: "confirm",
      target: "end"
    }]
  })
  const opened = (events: ReadonlyArray<InstanceEvent>) =>
    events.filter((e): e is Extract<InstanceEvent, { type: "MessageSubscriptionOpened" }> =>
      e.type === "MessageSubscriptionOpened"
    )

  it("opens a subscription with the correlation key evaluated on arrival, and moves on when it is correlated", () => {
    const s = scenario(graph)
    s.start({ orderId: "A-1" })
    const [first] = opened(s.events)
    expect(first).toMatchObject({ nodeId: "paid", messageName: "payment", correlationKey: "A-1" })
    s.run({ type: "CorrelateMessage", subscriptionId: first!.subscriptionId, variables: { amount: 10 } })
    const second = opened(s.events)[1]!
    expect(second).toMatchObject({ nodeId: "confirm", messageName: "confirmation", correlationKey: "C-A-1" })
    expect(s.run({ type: "CorrelateMessage", subscriptionId: first!.subscriptionId, variables: {} })).toMatchObject({
      ok: false,
      reason: "NOT_FOUND"
    })
    s.run({ type: "CorrelateMessage", subscriptionId: second.subscriptionId, variables: {} })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { orderId: "A-1", amount: 10 } })
  })

  it("raises an incident when the correlation key is missing", () => {
    const s = scenario(graph)
    s.start({})
    expect(Object.values(s.state.incidents)[0]).toMatchObject({ nodeId: "paid", type: "EXTRACT_VALUE_ERROR" })
  })
})

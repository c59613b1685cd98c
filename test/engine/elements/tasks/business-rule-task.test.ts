// Unit tests of the pure core: business rule task.
import { describe, expect, it } from "vitest"
import type { InstanceEvent } from "../../../../src/engine/InstanceState.ts"
import { scenario } from "../../../support/EngineScenario.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("business rule task", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "rate", type: "businessRuleTask", properties: { decisionId: "risk", resultVariable: "assessment" } },
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "rate" }, { id: "f2", source: "rate", target: "end" }]
  })

  it("waits for the decision; every output becomes a variable and the whole result goes to resultVariable", () => {
    const s = scenario(graph)
    s.start({ amount: 10 })
    const requested = s.events.find((e): e is Extract<InstanceEvent, { type: "DecisionRequested" }> =>
      e.type === "DecisionRequested"
    )!
    expect(requested).toMatchObject({ decisionId: "risk", variables: { amount: 10 } })
    s.run({
      type: "DecisionEvaluated",
      evaluationId: requested.evaluationId,
      result: { level: "low", score: 3 },
      outputs: { level: "low", score: 3 }
    })
    expect(s.state).toMatchObject({
      status: "COMPLETED",
      variables: { amount: 10, level: "low", score: 3, assessment: { level: "low", score: 3 } }
    })
  })

  it("a failed evaluation is an incident at the task", () => {
    const s = scenario(graph)
    s.start()
    const requested = s.events.find((e): e is Extract<InstanceEvent, { type: "DecisionRequested" }> =>
      e.type === "DecisionRequested"
    )!
    s.run({ type: "DecisionFailed", evaluationId: requested.evaluationId, message: "decision risk not found" })
    expect(Object.values(s.state.incidents)[0]).toMatchObject({
      nodeId: "rate",
      type: "DECISION_EVALUATION_ERROR",
      message: "decision risk not found"
    })
  })
})

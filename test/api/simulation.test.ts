// POST /deployments/{id}/simulate: in-memory runs of a deployed process, nothing saved; coverage and timings.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const approval = {
  id: "sim-approval",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "score", type: "serviceTask", properties: { taskType: "sim-score" } },
    { id: "gw", type: "exclusiveGateway" },
    { id: "review", type: "userTask" },
    { id: "cool-off", type: "intermediateCatchEvent", properties: { timeDuration: "PT2H" } },
    { id: "auto", type: "scriptTask", properties: { expression: "= \"approved\"", resultVariable: "decision" } },
    { id: "e1", type: "endEvent" },
    { id: "e2", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "s", target: "score" },
    { id: "f2", source: "score", target: "gw" },
    { id: "big", source: "gw", target: "review", condition: "= amount > 1000" },
    { id: "small", source: "gw", target: "auto", default: true },
    { id: "f5", source: "review", target: "cool-off" },
    { id: "f6", source: "cool-off", target: "e1" },
    { id: "f7", source: "auto", target: "e2" }
  ]
}

describe("simulate a deployment", () => {
  it("drives runs down the branches the variables choose and reports coverage, outcomes and simulated time", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(approval)
    const report = (await owner.post(`/deployments/${deployment.id}/simulate`, {
      runs: 10,
      variableSets: [{ amount: 50 }, { amount: 5000 }],
      results: { score: { risk: "low" } }
    })).ok()
    expect(report).toMatchObject({
      deploymentId: deployment.id,
      runs: 10,
      outcomes: { COMPLETED: 10, INCIDENT: 0, STUCK: 0, STEP_LIMIT: 0 }
    })
    expect(report.flowCoverage).toEqual({ covered: 7, total: 7, ratio: 1 })
    expect(report.nodes.find((n: { nodeId: string }) => n.nodeId === "review").activations).toBe(5)
    expect(report.flows.find((f: { flowId: string }) => f.flowId === "small").taken).toBe(5)
    // Half the runs wait two simulated hours at the timer.
    expect(report.timings.simulatedMillis.max).toBe(2 * 3_600_000)
    expect(report.timings.perRunMillis.p95).toBeGreaterThanOrEqual(0)
    // Nothing was saved.
    expect((await owner.get(`/process-instances?deploymentId=${deployment.id}`)).ok().items).toEqual([])
  })

  it("reports uncovered flows, and where runs stop", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(approval)
    const report = (await owner.post(`/deployments/${deployment.id}/simulate`, { runs: 3, variables: { amount: 10 } }))
      .ok()
    expect(report.uncoveredFlows.sort()).toEqual(["big", "f5", "f6"])
    expect(report.flowCoverage).toMatchObject({ covered: 4, total: 7 })
    const stuck = await owner.deploy({
      id: "sim-stuck",
      nodes: [{ id: "s", type: "startEvent" }, {
        id: "wait",
        type: "intermediateCatchEvent",
        properties: { condition: "= ready" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "e" }]
    })
    const stopped = (await owner.post(`/deployments/${stuck.id}/simulate`, { runs: 2 })).ok()
    expect(stopped.outcomes.STUCK).toBe(2)
    expect(stopped.stops).toEqual([{ nodeId: "wait", outcome: "STUCK", reason: "waits for condition", runs: 2 }])
    ;(await owner.post("/deployments/00000000-0000-4000-8000-000000000000/simulate", {})).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
    ;(await owner.post(`/deployments/${stuck.id}/simulate`, { runs: 0 })).fails(400, "VALIDATION_ERROR")
  })
})

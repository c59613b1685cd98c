// A process that loops without a wait state, or a parallel multi-instance over a collection too large for one command,
// exceeds a command's run budget (engine/RunBudget.ts): the command is refused with 422 and nothing is applied, the
// node keeps answering, and the simulator and Play sessions stop such a run instead of spinning.
import { describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { eachItem, gatewayLoop, workThenLoop } from "../support/LoopingModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const timerThenLoop = {
  id: "budget-timer-then-loop",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "wait", type: "intermediateCatchEvent", properties: { timeDuration: "PT1M" } },
    { id: "g1", type: "exclusiveGateway" },
    { id: "g2", type: "exclusiveGateway" }
  ],
  flows: [
    { id: "f0", source: "s", target: "wait" },
    { id: "f1", source: "wait", target: "g1" },
    { id: "f2", source: "g1", target: "g2" },
    { id: "f3", source: "g2", target: "g1" }
  ]
}

describe("a command's run budget", () => {
  it("refuses a start that loops without a wait state with 422, creates nothing, and the node keeps answering", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(gatewayLoop)
    const refused = (await owner.post("/process-instances", { deploymentId: deployment.id }))
      .fails(422, "BUSINESS_ERROR")
    expect(refused.message).toMatch(/without the instance reaching a wait state/)
    expect(refused.errors[0]).toMatchObject({ field: "process", code: "RUN_BUDGET_EXCEEDED" })
    const listed = (await owner.get(`/process-instances?processKey=${gatewayLoop.id}`)).ok()
    expect(listed.items).toHaveLength(0)
    ;(await owner.get("/health")).ok()
  })

  it("refuses a job's completion that runs into such a loop; the job stays open and the instance as it was", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(workThenLoop)
    const instance = await owner.start(deployment.id)
    const [job] =
      (await owner.post("/jobs/activation", { type: "budget-work", worker: "w", maxJobsToActivate: 1 })).ok()
        .jobs
    ;(await owner.post(`/jobs/${job.id}/complete`, { variables: { done: true } })).fails(422, "BUSINESS_ERROR")
    const after = await owner.instance(instance.id)
    expect(after.state).toBe("ACTIVE")
    const variables = (await owner.get(`/process-instances/${instance.id}/variables`)).ok()
    expect(JSON.stringify(variables)).not.toContain("done")
    const jobs = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok()
    expect(jobs.items.map((j: { state: string }) => j.state)).toEqual(["ACTIVATED"])
  })

  it("leaves a timer whose firing would loop where it is, due, and the poller carries on", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(timerThenLoop)
    const instance = await owner.start(deployment.id)
    tenant.app.clock.advance("2 minutes")
    await tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    await tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    const later = await tenant.owner()
    expect((await later.instance(instance.id)).state).toBe("ACTIVE")
    const [timer] = (await later.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()
    expect(timer).toMatchObject({ kind: "TIMER", nodeId: "wait" })
  })

  it("runs a large parallel multi-instance in one command, and refuses one too large for it", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(eachItem)
    const large = await owner.start(deployment.id, { items: Array.from({ length: 1_000 }, (_, i) => i) })
    expect((await owner.instance(large.id)).state).toBe("ACTIVE")
    ;(await owner.post("/process-instances", {
      deploymentId: deployment.id,
      variables: { items: Array.from({ length: 40_000 }, (_, i) => i) }
    })).fails(422, "BUSINESS_ERROR")
  })

  it("stops a simulated run that loops as STEP_LIMIT, and a Play session that would loop with 422", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(gatewayLoop)
    const report = (await owner.post(`/deployments/${deployment.id}/simulate`, { runs: 3, maxStepsPerRun: 100_000 }))
      .ok()
    expect(report.outcomes.STEP_LIMIT).toBe(report.runs)
    expect(report.stops[0].reason).toMatch(/without the instance reaching a wait state/)
    ;(await owner.post("/play/sessions", { graph: gatewayLoop })).fails(422, "BUSINESS_ERROR")
  })
})

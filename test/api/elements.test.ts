// One HTTP scenario per element family (JSON graphs keep them short): the same behaviour the core tests prove,
// through deploy -> start -> work -> state.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const task = (id: string, taskType = id) => ({ id, type: "serviceTask", properties: { taskType } })
const flow = (source: string, target: string, extra: Record<string, unknown> = {}) => ({ id: `${source}-${target}`, source, target, ...extra })

describe("elements through HTTP", () => {
  it("parallel gateway: forks two jobs and joins before continuing", async () => {
    const owner = await (await givenTenant()).owner()
    const d = await owner.deploy({
      id: "par",
      nodes: [{ id: "s", type: "startEvent" }, { id: "fork", type: "parallelGateway" }, task("pa"), task("pb"), { id: "join", type: "parallelGateway" }, { id: "e", type: "endEvent" }],
      flows: [flow("s", "fork"), flow("fork", "pa"), flow("fork", "pb"), flow("pa", "join"), flow("pb", "join"), flow("join", "e")]
    })
    const instance = await owner.start(d.id)
    const [a] = await owner.activateJobs("pa")
    const [b] = await owner.activateJobs("pb")
    await owner.completeJob(a.id)
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    expect((await owner.get(`/process-instances/${instance.id}/tokens`)).ok().map((t: { waitingFor: string }) => t.waitingFor).sort()).toEqual(["JOB", "JOIN"])
    await owner.completeJob(b.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("inclusive gateway: runs the branches whose conditions hold and joins only those", async () => {
    const owner = await (await givenTenant()).owner()
    const d = await owner.deploy({
      id: "inc",
      nodes: [{ id: "s", type: "startEvent" }, { id: "fork", type: "inclusiveGateway" }, task("ia"), task("ib"), { id: "join", type: "inclusiveGateway" }, { id: "e", type: "endEvent" }],
      flows: [flow("s", "fork"), flow("fork", "ia", { condition: "= a" }), flow("fork", "ib", { condition: "= b" }), flow("ia", "join"), flow("ib", "join"), flow("join", "e")]
    })
    const instance = await owner.start(d.id, { a: true, b: false })
    expect(await owner.activateJobs("ib")).toEqual([])
    const [a] = await owner.activateJobs("ia")
    await owner.completeJob(a.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("script task and terminate end event", async () => {
    const owner = await (await givenTenant()).owner()
    const d = await owner.deploy({
      id: "scr",
      nodes: [
        { id: "s", type: "startEvent" }, { id: "calc", type: "scriptTask", properties: { expression: "= price * qty", resultVariable: "total" } },
        { id: "fork", type: "parallelGateway" }, task("never-done"), { id: "stop", type: "endEvent", properties: { terminate: true } }, { id: "e", type: "endEvent" }
      ],
      flows: [flow("s", "calc"), flow("calc", "fork"), flow("fork", "never-done"), flow("fork", "stop"), flow("never-done", "e")]
    })
    const instance = await owner.start(d.id, { price: 2.5, qty: 4 })
    const done = await owner.instance(instance.id)
    expect(done).toMatchObject({ state: "COMPLETED", variables: { price: 2.5, qty: 4, total: 10 } })
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items.map((j: { state: string }) => j.state)).toEqual(["CANCELED"])
  })

  it("input and output mappings shape what the worker sees and what the instance keeps", async () => {
    const owner = await (await givenTenant()).owner()
    const d = await owner.deploy({
      id: "map",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "t", type: "serviceTask", properties: { taskType: "mapped", inputMappings: [{ source: "= order.id", target: "orderId" }], outputMappings: [{ source: "= status", target: "paymentStatus" }] } },
        { id: "e", type: "endEvent" }
      ],
      flows: [flow("s", "t"), flow("t", "e")]
    })
    const instance = await owner.start(d.id, { order: { id: "O-1" } })
    const [job] = await owner.activateJobs("mapped")
    expect(job.variables).toMatchObject({ orderId: "O-1" })
    await owner.completeJob(job.id, { status: "PAID", noise: 1 })
    expect((await owner.instance(instance.id)).variables).toEqual({ order: { id: "O-1" }, paymentStatus: "PAID" })
  })
})

// Group-committed batches written as ONE statement (persistence/instances/OneStatementCommit.ts) where their writes allow, else as
// a transaction of several statements, else command by command: what the instances, jobs and history show is the
// same whichever way a batch went, and flowcore_commits_total says which ways were taken.
import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.ts"
import { metricsText, metricSum } from "../support/MetricsScrape.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

const oneTask = {
  id: "batched",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "batched-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

// One command inserts the job's row and closes it again: that batch needs two statements.
const createdAndCanceled = {
  id: "created-and-canceled",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "fork", type: "parallelGateway" },
    { id: "work", type: "serviceTask", properties: { taskType: "never-done" } },
    { id: "stop", type: "endEvent", properties: { terminate: true } },
    { id: "end", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "start", target: "fork" },
    { id: "f2", source: "fork", target: "work" },
    { id: "f3", source: "fork", target: "stop" },
    { id: "f4", source: "work", target: "end" }
  ]
}

const commits = async () => {
  const text = await metricsText()
  const value = (way: string) => metricSum(text, "flowcore_commits_total", `as="${way}"`)
  return { oneStatement: value("one_statement"), transaction: value("transaction"), oneByOne: value("one_by_one") }
}

describe("group commit as one statement", () => {
  it("starts and completes concurrent instances with their jobs and full history", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    const before = await commits()
    const instances = await Promise.all(Array.from({ length: 24 }, (_, n) => owner.start(deployment.id, { n })))
    const jobs = await owner.activateJobs("batched-work", { maxJobsToActivate: 50 })
    expect(jobs).toHaveLength(24)
    await Promise.all(jobs.map((job: { id: string }, i: number) => owner.completeJob(job.id, { done: i })))
    const after = await commits()
    expect(after.oneStatement).toBeGreaterThan(before.oneStatement)
    expect(after.oneByOne).toBe(before.oneByOne)

    const histories = new Set<string>()
    for (const [n, instance] of instances.entries()) {
      const finished = await owner.instance(instance.id)
      expect(finished.state).toBe("COMPLETED")
      expect(finished.variables).toMatchObject({ n })
      const history = (await owner.history(instance.id)) as Array<{ type: string; eventSeq: number }>
      expect(history.at(-1)!.type).toBe("InstanceCompleted")
      // numbered 1, 2, ... across the start's commit and the completion's (one history row per commit)
      expect(history.map((event) => event.eventSeq)).toEqual(history.map((_, index) => index + 1))
      histories.add(history.map((event) => event.type).join(" "))
    }
    // every instance went the same way, whichever batch its commands were in
    expect(histories.size).toBe(1)
    expect([...histories][0]).toContain("JobCompleted")
    const rows = (await owner.get(`/jobs?type=batched-work&size=100`)).ok().items as Array<{ state: string }>
    expect(rows.map((row) => row.state)).toEqual(Array(24).fill("COMPLETED"))
  })

  it("writes a job created and canceled by one command as two statements, and the job ends canceled", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(createdAndCanceled)
    const before = await commits()
    const instance = await owner.start(deployment.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    expect(
      (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items.map((j: { state: string }) => j.state)
    )
      .toEqual(["CANCELED"])
    expect((await commits()).transaction).toBeGreaterThan(before.transaction)
  })

  it("writes new message subscriptions as one statement while no buffered message waits, else claims it in a transaction", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const before = await commits()
    const plain = await Promise.all(
      Array.from({ length: 12 }, (_, n) => owner.start(deployment.id, { orderId: `p-${n}` }))
    )
    const afterPlain = await commits()
    expect(afterPlain.oneStatement).toBeGreaterThan(before.oneStatement)
    expect(afterPlain.transaction).toBe(before.transaction)
    for (const instance of plain) {
      expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()[0]).toMatchObject({
        name: "payment-received"
      })
    }
    // Two messages buffered for one key: the first two instances to wait for it take one each, in order.
    for (const n of [1, 2]) {
      ;(await owner.post("/messages", {
        messageName: "payment-received",
        correlationKey: "held",
        timeToLive: 60_000,
        variables: { paid: n }
      })).ok(202)
    }
    const mixed = await Promise.all(
      ["other-1", "held", "other-2", "held", "other-3", "held"].map((orderId) =>
        owner.start(deployment.id, { orderId })
      )
    )
    const afterMixed = await commits()
    expect(afterMixed.transaction).toBeGreaterThan(afterPlain.transaction)
    expect(afterMixed.oneByOne).toBe(before.oneByOne)
    await eventually(async () => {
      const paid = await Promise.all(
        mixed.map(async (instance) => (await owner.instance(instance.id)).variables["paid"])
      )
      expect(paid.filter((value) => value !== undefined).sort()).toEqual([1, 2])
      expect(paid.filter((_, i) => [0, 2, 4].includes(i))).toEqual([undefined, undefined, undefined])
    })
  })
})

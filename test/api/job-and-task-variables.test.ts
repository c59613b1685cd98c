// A job or user task records only its own variables when it is created (engine/OwnVariables.ts): a parallel
// multi-instance over a large collection no longer writes the collection once per job (n² values in one command,
// which exhausted the node's memory). What a worker activates, and what the job and task lists show while the
// instance waits, are the variables as they stand now (services/work/VariablesNow.ts).
import { describe, expect, it } from "vitest"
import { eachItem } from "../support/LoopingModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const reviewEach = {
  id: "review-each",
  nodes: [
    { id: "s", type: "startEvent" },
    {
      id: "review",
      type: "userTask",
      properties: { multiInstance: { sequential: false, inputCollection: "= items", inputElement: "item" } }
    },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "review" }, { id: "f2", source: "review", target: "e" }]
}

/** 1,500 items of 1 KB: 1.5 MB of variables, which every job used to carry. */
const largeList = () => Array.from({ length: 1_500 }, (_, i) => `${i}:`.padEnd(1_000, "x"))

/** Each of the multi-instance's jobs maps the whole collection into a local variable of its own. */
const eachCopying = {
  ...eachItem,
  id: "budget-each-copying",
  nodes: eachItem.nodes.map((node) =>
    node.id === "each"
      ? { ...node, properties: { ...node.properties, inputMappings: [{ source: "= items", target: "all" }] } }
      : node
  )
}

describe("job and task variables", () => {
  it("a parallel multi-instance over a large collection starts, each job recording its item alone", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(eachItem)
    const items = largeList()
    const instance = await owner.start(deployment.id, { items })
    const listed = (await owner.get(`/jobs?processInstanceId=${instance.id}&size=3`)).ok()
    expect(listed.totalItems).toBe(1_500)
    // while the instance waits on them, jobs show what they see now: the collection too
    for (const job of listed.items) {
      expect(job.variables.items).toHaveLength(1_500)
      expect(job.variables.item).toBe(items[job.variables.loopCounter - 1])
    }
    // the history holds each job's own variables only
    const history = (await owner.get(`/process-instances/${instance.id}/history?size=1000&page=2`)).ok()
    const created = history.items.filter((event: { type: string }) => event.type === "JobCreated")
    expect(created.length).toBeGreaterThan(0)
    for (const { data } of created) {
      expect(data.variables).toEqual({ item: items[data.variables.loopCounter - 1], loopCounter: expect.any(Number) })
    }
    // a worker activates them with all they see
    const [job] = await owner.activateJobs("budget-each", { maxJobsToActivate: 1 })
    expect(job.variables.items).toHaveLength(1_500)
    expect(job.variables.item).toBe(items[job.variables.loopCounter - 1])
  }, 60_000)

  it("lists an open job with the instance's variables as they stand now, a done one with its own", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(eachItem)
    const instance = await owner.start(deployment.id, { items: ["a", "b"], note: "first" })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { note: "edited" } })).ok()
    const open = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items
    expect(open.map((job: { variables: { note: string } }) => job.variables.note)).toEqual(["edited", "edited"])
    const [first] = await owner.activateJobs("budget-each", { maxJobsToActivate: 1 })
    await owner.completeJob(first.id, { result: 1 })
    const listed = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items
    const done = listed.find((job: { id: string }) => job.id === first.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables).toEqual({ item: first.variables.item, loopCounter: first.variables.loopCounter })
  })

  it(
    "lists a user task of a large parallel multi-instance with what it sees now, and its own once completed",
    async () => {
      const owner = await (await givenTenant()).owner()
      const deployment = await owner.deploy(reviewEach)
      const items = largeList()
      const instance = await owner.start(deployment.id, { items })
      ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { note: "edited" } })).ok()
      const [task] = await owner.tasks(`?processInstanceId=${instance.id}&size=1`)
      expect(task.variables).toMatchObject({ note: "edited", item: items[task.variables.loopCounter - 1] })
      expect(task.variables.items).toHaveLength(1_500)
      await owner.completeTask(task.id, { verdict: "ok" })
      const [completed] = await owner.tasks(`?processInstanceId=${instance.id}&state=COMPLETED`)
      expect(completed.variables).toEqual({ item: task.variables.item, loopCounter: task.variables.loopCounter })
    },
    60_000
  )

  it("refuses a command whose events would take more than its budget (n copies of a large value) with 422", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(eachCopying)
    // 300 jobs each copying 300 KB: ~90 MB of events, past the 32 MiB a command may write
    const items = Array.from({ length: 300 }, (_, i) => `${i}:`.padEnd(1_000, "x"))
    const refused = (await owner.post("/process-instances", { deploymentId: deployment.id, variables: { items } }))
      .fails(422, "BUSINESS_ERROR")
    expect(refused.errors[0]).toMatchObject({ field: "process", code: "RUN_BUDGET_EXCEEDED" })
    expect(refused.message).toMatch(/MiB/)
    expect((await owner.get(`/process-instances?processKey=${eachCopying.id}`)).ok().items).toHaveLength(0)
    // within the budget it runs: 30 copies of the same collection
    const fewer = await owner.start(deployment.id, { items: items.slice(0, 30) })
    const [job] = await owner.activateJobs("budget-each", { maxJobsToActivate: 1 })
    expect(job.processInstanceId).toBe(fewer.id)
    expect(job.variables.all).toHaveLength(30)
  })

  it(
    "keeps an answer's variables within 16 MiB: an activation gives back the jobs past it, a page too large is a 400",
    async () => {
      const owner = await (await givenTenant()).owner()
      const deployment = await owner.deploy(eachItem)
      // ten jobs that each see a 3 MiB variable: five fit in one answer
      const blob = "x".repeat(3 * 1024 * 1024)
      const instance = await owner.start(deployment.id, { items: Array.from({ length: 10 }, (_, i) => i), blob })
      const tooLarge = (await owner.get(`/jobs?processInstanceId=${instance.id}&size=10`)).fails(
        400,
        "VALIDATION_ERROR"
      )
      expect(tooLarge.errors[0]).toMatchObject({ field: "query.size", code: "ANSWER_TOO_LARGE" })
      expect(tooLarge.message).toMatch(/at most 5 per page/)
      expect((await owner.get(`/jobs?processInstanceId=${instance.id}&size=5`)).ok().items).toHaveLength(5)
      const first = await owner.activateJobs("budget-each", { maxJobsToActivate: 10, worker: "big" })
      expect(first).toHaveLength(5)
      expect(first.every((job) => job.variables.blob.length === blob.length)).toBe(true)
      // the other five were given back: the next activation takes them
      const second = await owner.activateJobs("budget-each", { maxJobsToActivate: 10, worker: "big" })
      expect(second).toHaveLength(5)
      expect(new Set([...first, ...second].map((job) => job.variables.item))).toEqual(
        new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
      )
      // asking only for some variables, all ten fit
      const third = await owner.start(deployment.id, { items: Array.from({ length: 10 }, (_, i) => i), blob })
      const slim = (await owner.post("/jobs/activation", {
        type: "budget-each",
        worker: "slim",
        maxJobsToActivate: 10,
        fetchVariable: ["item"]
      })).ok().jobs
      expect(slim.map((job: { processInstanceId: string }) => job.processInstanceId)).toEqual(Array(10).fill(third.id))
    },
    60_000
  )
})

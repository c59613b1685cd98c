// The job worker client against the real service: jobs taken over the stream and by long polling, results completing
// them, JobError throwing a BPMN error, other failures failing the job, bounded concurrency, a graceful stop.
import { createWorker, JobError } from "@flowcore/worker"
import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = (key: string) => ({
  id: key,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: `${key}-work` } },
    { id: "caught", type: "boundaryEvent", properties: { attachedTo: "work", errorCode: "NO_STOCK" } },
    { id: "e", type: "endEvent" },
    { id: "handled", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "s", target: "work" },
    { id: "f2", source: "work", target: "e" },
    { id: "f3", source: "caught", target: "handled" }
  ]
})

describe.each([{ stream: true }, { stream: false }])("worker client (stream: $stream)", ({ stream }) => {
  it("completes, throws errors, fails, never runs more than its concurrency, and stops gracefully", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const key = `worked-${stream ? "stream" : "poll"}`
    const deployment = await owner.deploy(model(key))
    const instances = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) => owner.start(deployment.id, { n: i, outcome: i === 4 ? "error" : i === 5 ? "fail" : "ok" })
      )
    )
    let running = 0
    let peak = 0
    const worker = createWorker({
      baseUrl: tenant.app.baseUrl,
      token: owner.token!,
      type: `${key}-work`,
      worker: "test-worker",
      concurrency: 2,
      stream,
      pollWait: 500,
      onError: () => undefined,
      handler: async (job) => {
        running++
        peak = Math.max(peak, running)
        await new Promise((resolve) => setTimeout(resolve, 20))
        running--
        if (job.variables["outcome"] === "error") throw new JobError("NO_STOCK", "nothing left")
        if (job.variables["outcome"] === "fail") throw new Error("the card service is down")
        return { doubled: Number(job.variables["n"]) * 2 }
      }
    })
    try {
      await eventually(async () => {
        expect(worker.stats).toMatchObject({ completed: 4, errors: 1 })
        expect(worker.stats.failed).toBeGreaterThanOrEqual(1)
      }, { timeoutMs: 20_000, intervalMs: 50 })
    } finally {
      await worker.stop()
    }
    expect(peak).toBeLessThanOrEqual(2)
    for (const instance of instances.slice(0, 4)) {
      expect(await owner.instance(instance.id)).toMatchObject({
        state: "COMPLETED",
        variables: { doubled: (await owner.instance(instance.id)).variables.n * 2 }
      })
    }
    expect((await owner.instance(instances[4]!.id)).state).toBe("COMPLETED") // the error boundary caught NO_STOCK
    const failed = (await owner.get(`/jobs?processInstanceId=${instances[5]!.id}`)).ok().items[0]
    expect(failed.errorMessage).toBe("the card service is down")
  }, 60_000)
})

// Getting jobs without busy polling: long-polling activation (requestTimeout) and the server-sent job stream.
import { describe, expect, it } from "vitest"
import { metricsText, metricSum, untilInFlight } from "../support/MetricsScrape.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"
import { nextOf, sseData } from "../support/ServerSentEvents.ts"

const oneTask = (id: string, taskType: string) => ({
  id,
  nodes: [{ id: "s", type: "startEvent" }, { id: "work", type: "serviceTask", properties: { taskType } }, {
    id: "e",
    type: "endEvent"
  }],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
})

/** Reads server-sent events from the job stream until `count` jobs arrived, then disconnects. */
const streamedJobs = async (caller: Caller, query: string, count: number, opened: () => Promise<void>) => {
  const controller = new AbortController()
  const response = await fetch(`${caller.app.baseUrl}/api/v1/jobs/stream?${query}`, {
    headers: { authorization: `Bearer ${caller.token}` },
    signal: controller.signal
  })
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/event-stream")
  await opened()
  const jobs = await nextOf(sseData(response.body!), count)
  controller.abort()
  return jobs
}

/** Jobs handed over by push so far (the app is shared by the tests of this file: compare before and after). */
const pushedCount = async () => metricSum(await metricsText(), "flowcore_jobs_pushed_total")

describe("job streaming", () => {
  it("long polling: an activation waiting with requestTimeout answers as soon as a job is created", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask("long-poll", "long-poll-work"))
    const waiting = owner.post("/jobs/activation", {
      type: "long-poll-work",
      worker: "patient",
      requestTimeout: 30_000
    })
    const instance = await owner.start(deployment.id)
    const { jobs } = (await waiting).ok()
    expect(jobs).toHaveLength(1)
    expect(jobs[0]).toMatchObject({ processInstanceId: instance.id, state: "ACTIVATED", worker: "patient" })
    // Nothing to take: an empty answer once the time is up.
    expect(
      (await owner.post("/jobs/activation", { type: "long-poll-work", worker: "patient", requestTimeout: 50 })).ok()
        .jobs
    ).toEqual([])
  })

  it("job push: a job created while a long poll waits is committed leased to it and handed over", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask("pushed", "pushed-work"))
    const before = await pushedCount()
    // Whether the poll already waits (push) or still looks (it then finds the job itself) when the job is created is
    // up to timing: the scenario is repeated until one push happened — each round must hand the job over either way.
    for (let round = 0; round < 40 && (await pushedCount()) === before; round++) {
      const waiting = owner.post("/jobs/activation", {
        type: "pushed-work",
        worker: "waiter",
        timeout: 45_000,
        fetchVariable: ["kept"],
        requestTimeout: 30_000
      })
      await untilInFlight()
      const instance = await owner.start(deployment.id, { kept: round, dropped: true })
      const { jobs } = (await waiting).ok()
      expect(jobs).toHaveLength(1)
      expect(jobs[0]).toMatchObject({
        processInstanceId: instance.id,
        state: "ACTIVATED",
        worker: "waiter",
        variables: { kept: round }
      })
      const [row] = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items
      expect(row).toMatchObject({ state: "ACTIVATED", worker: "waiter", deadline: jobs[0].deadline })
      ;(await owner.post(`/jobs/${jobs[0].id}/complete`, {})).ok()
      expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    }
    expect(await pushedCount()).toBeGreaterThan(before)
  })

  it("the stream pushes jobs created after it opened, locked for the streaming worker", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask("streamed", "streamed-work"))
    const started: Array<string> = []
    const jobs = await streamedJobs(owner, "type=streamed-work&worker=streamer&timeout=60000", 2, async () => {
      started.push((await owner.start(deployment.id, { n: 1 })).id, (await owner.start(deployment.id, { n: 2 })).id)
    })
    expect(jobs.map((job) => job["processInstanceId"]).sort()).toEqual([...started].sort())
    expect(jobs.every((job) => job["state"] === "ACTIVATED" && job["worker"] === "streamer")).toBe(true)
    // They are locked: a poll finds nothing.
    expect((await owner.post("/jobs/activation", { type: "streamed-work", worker: "other" })).ok().jobs).toEqual([])
  })

  it("a stream is handed every job created while it listens, several at once, each pushed in its creating commit", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask("burst", "burst-work"))
    const controller = new AbortController()
    const response = await fetch(
      `${owner.app.baseUrl}/api/v1/jobs/stream?type=burst-work&worker=burster&timeout=60000`,
      { headers: { authorization: `Bearer ${owner.token}` }, signal: controller.signal }
    )
    const events = sseData(response.body!)
    const nextJobs = (count: number) => nextOf(events, count)
    // The first job proves the stream listens (pushed, or found by its first look).
    const first = await owner.start(deployment.id)
    expect((await nextJobs(1)).map((job) => job["processInstanceId"])).toEqual([first.id])
    const before = await pushedCount()
    // Started together, their jobs are committed together: a stream takes them all, not one per look.
    const burst = await Promise.all(Array.from({ length: 8 }, (_, n) => owner.start(deployment.id, { n })))
    const jobs = await nextJobs(8)
    controller.abort()
    expect(jobs.map((job) => job["processInstanceId"]).sort()).toEqual(burst.map((instance) => instance.id).sort())
    expect(jobs.every((job) => job["state"] === "ACTIVATED" && job["worker"] === "burster")).toBe(true)
    expect(await pushedCount()).toBe(before + 8)
  })

  it(
    "long polls under a burst: every job once, to the worker that asked, no answer over maxJobsToActivate",
    async () => {
      const owner = await (await givenTenant()).owner()
      const deployment = await owner.deploy(oneTask("burst-poll", "burst-poll-work"))
      const COUNT = 40
      const received: Array<string> = []
      const sizes: Array<number> = []
      const poll = async (worker: string) => {
        while (received.length < COUNT) {
          const { jobs } = (await owner.post("/jobs/activation", {
            type: "burst-poll-work",
            worker,
            maxJobsToActivate: 3,
            requestTimeout: 2_000
          })).ok()
          sizes.push(jobs.length)
          for (const job of jobs as Array<{ id: string; worker: string }>) {
            expect(job.worker).toBe(worker)
            received.push(job.id)
          }
        }
      }
      // Two workers keep polling while the instances start in waves (jobs come while they wait and while they look).
      await Promise.all([
        poll("burst-a"),
        poll("burst-b"),
        (async () => {
          for (let wave = 0; wave < COUNT / 8; wave++) {
            await Promise.all(Array.from({ length: 8 }, () => owner.start(deployment.id)))
          }
        })()
      ])
      expect(new Set(received).size).toBe(COUNT)
      expect(received).toHaveLength(COUNT)
      expect(Math.max(...sizes)).toBeLessThanOrEqual(3)
    },
    60_000
  )

  it("the stream needs a type and a worker, and an operator role", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    ;(await owner.get("/jobs/stream?worker=w")).fails(400, "VALIDATION_ERROR")
    ;(await (await tenant.taskUser()).get("/jobs/stream?type=t&worker=w")).fails(403, "FORBIDDEN")
  })
})

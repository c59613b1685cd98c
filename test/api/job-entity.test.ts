// A job's messages are handled one at a time by the job's entity: completions, failures, heartbeats, retry-now and
// leases racing each other for the same job apply in some order, each once — never twice, never half.
import { describe, expect, it } from "vitest"
import { metricsText, metricSum } from "../support/MetricsScrape.ts"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant } from "../support/Scenario.ts"

const jobState = async (
  client: { get: (path: string) => Promise<{ ok: () => any }> },
  instanceId: string
): Promise<string> => (await client.get(`/jobs?processInstanceId=${instanceId}`)).ok().items[0].state

/** How many jobs `call` made the service announce to waiting workers (flowcore_jobs_announced_total). */
const announcedBy = async (call: () => Promise<unknown>) => {
  const total = async () => metricSum(await metricsText(), "flowcore_jobs_announced_total")
  const before = await total()
  await call()
  return (await total()) - before
}

const countOf = (events: ReadonlyArray<{ type: string }>, type: string) => events.filter((e) => e.type === type).length

describe("the job's entity", () => {
  it("applies one of many concurrent completions; the others answer 409 or the recorded outcome", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("race"))
    const instance = await owner.start(deployment.id, {})
    const [job] = await owner.activateJobs("race-work")
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => owner.post(`/jobs/${job.id}/complete`, { variables: { by: i } }))
    )
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true)
    expect(answers.some((answer) => answer.status === 200)).toBe(true)
    const history = await owner.history(instance.id)
    expect(countOf(history, "JobCompleted")).toBe(1)
    expect((await owner.get(`/process-instances/${instance.id}`)).ok().state).toBe("COMPLETED")
    expect(await jobState(owner, instance.id)).toBe("COMPLETED")
  })

  it("a completion racing a lease that ran out and a new worker's activation applies once", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(oneTaskModel("expiry"))
    const instance = await owner.start(deployment.id, {})
    const take = (worker: string) =>
      owner.post("/jobs/activation", { type: "expiry-work", worker, maxJobsToActivate: 1, timeout: 1000 })
    const [job] = (await take("slow")).ok().jobs
    tenant.app.clock.advance("2 seconds")
    const [late, reactivation] = await Promise.all([
      owner.post(`/jobs/${job.id}/complete`, { variables: { by: "slow" } }),
      take("fast")
    ])
    // Either order is valid: the late completion wins (the new worker gets nothing, or a job it cannot complete), or
    // the new worker leases the job first and the late completion still completes it (as Zeebe accepts).
    expect(late.status).toBe(200)
    const taken = reactivation.ok().jobs
    if (taken.length === 1) {
      const second = await owner.post(`/jobs/${job.id}/complete`, { variables: { by: "fast" } })
      expect(second.status).toBe(409)
    }
    const history = await owner.history(instance.id)
    expect(countOf(history, "JobCompleted")).toBe(1)
    expect((await owner.get(`/process-instances/${instance.id}`)).ok().variables).toMatchObject({ by: "slow" })
  })

  it("retry-now racing a failure, an activation and a heartbeat leaves one consistent job", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(oneTaskModel("backoff"))
    const instance = await owner.start(deployment.id, {})
    const [job] = await owner.activateJobs("backoff-work")
    ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 2, errorMessage: "later", retryBackOff: 60_000 })).ok()
    expect((await owner.activateJobs("backoff-work")).length).toBe(0)
    const [retried, activated, beat] = await Promise.all([
      owner.post(`/jobs/${job.id}/retry-now`),
      owner.post("/jobs/activation", { type: "backoff-work", worker: "w", maxJobsToActivate: 1 }),
      owner.post(`/jobs/${job.id}/heartbeat`, { worker: "w" })
    ])
    expect(retried.status).toBe(200)
    // The heartbeat came before or after the lease: a 409 before (nothing to extend), a 200 after.
    expect([200, 409]).toContain(beat.status)
    const leased = activated.ok().jobs.length === 1
      ? activated.ok().jobs
      : (await owner.post("/jobs/activation", { type: "backoff-work", worker: "w", maxJobsToActivate: 1 })).ok().jobs
    expect(leased.map((j: { id: string }) => j.id)).toEqual([job.id])
    // Leased once: nobody else gets it while the lease runs.
    expect((await owner.activateJobs("backoff-work")).length).toBe(0)
    ;(await owner.post(`/jobs/${job.id}/complete`, {})).ok()
    const history = await owner.history(instance.id)
    expect(countOf(history, "JobFailed")).toBe(1)
    expect(countOf(history, "JobCompleted")).toBe(1)
  })

  it("a job activatable again at once (failed with retries and no backoff, given retries) is announced to workers", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("again"))
    await owner.start(deployment.id)
    const [job] = await owner.activateJobs("again-work")
    // retries left, no backoff: activatable now, announced
    expect(
      await announcedBy(async () => (await owner.post(`/jobs/${job.id}/fail`, { retries: 2, errorMessage: "x" })).ok())
    )
      .toBe(1)
    expect((await owner.activateJobs("again-work")).map((one: { id: string }) => one.id)).toEqual([job.id])
    // a backoff: it waits for it, nothing to announce yet
    expect(
      await announcedBy(async () =>
        (await owner.post(`/jobs/${job.id}/fail`, { retries: 1, errorMessage: "x", retryBackOff: 60_000 })).ok()
      )
    ).toBe(0) // no retries left: an incident; retries given again make it activatable, announced
    ;(await owner.post(`/jobs/${job.id}/retry-now`, {})).ok()
    expect((await owner.activateJobs("again-work")).map((one: { id: string }) => one.id)).toEqual([job.id])
    expect(
      await announcedBy(async () => (await owner.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "x" })).ok())
    )
      .toBe(0)
    expect(await announcedBy(async () => (await owner.post(`/jobs/${job.id}/retries`, { retries: 1 })).ok())).toBe(1)
    expect((await owner.activateJobs("again-work")).map((one: { id: string }) => one.id)).toEqual([job.id])
  })

  it("an instance resumed announces its waiting jobs: workers take them now, not at their next look", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("resumed"))
    const [first, second] = [await owner.start(deployment.id, {}), await owner.start(deployment.id, {})]
    for (const instance of [first, second]) (await owner.post(`/process-instances/${instance.id}/suspend`)).ok()
    // suspended: no worker gets their jobs, and suspending announces nothing
    expect(await owner.activateJobs("resumed-work")).toEqual([])
    // another tenant cannot resume it: 404, nothing announced
    const stranger = await (await givenTenant()).owner()
    expect(
      await announcedBy(async () =>
        (await stranger.post(`/process-instances/${first.id}/resume`)).fails(404, "RESOURCE_NOT_FOUND")
      )
    ).toBe(0)
    expect(await announcedBy(async () => (await owner.post(`/process-instances/${first.id}/resume`)).ok())).toBe(1)
    const taken = await owner.activateJobs("resumed-work", { maxJobsToActivate: 10 })
    expect(taken.map((job: { processInstanceId: string }) => job.processInstanceId)).toEqual([first.id])
    // a resumed instance whose job is leased already has nothing to announce
    const suspendedAgain = await owner.post(`/process-instances/${first.id}/suspend`)
    suspendedAgain.ok()
    expect(await announcedBy(async () => (await owner.post(`/process-instances/${first.id}/resume`)).ok())).toBe(0)
    expect(await announcedBy(async () => (await owner.post(`/process-instances/${second.id}/resume`)).ok())).toBe(1)
  })

  it("concurrent activations by several workers hand each job to one of them", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("share"))
    for (let i = 0; i < 20; i++) await owner.start(deployment.id, { i })
    const rounds = await Promise.all(
      ["a", "b", "c", "d"].map((worker) =>
        owner.post("/jobs/activation", { type: "share-work", worker, maxJobsToActivate: 8 })
      )
    )
    const ids = rounds.flatMap((round) => round.ok().jobs.map((j: { id: string }) => j.id))
    expect(new Set(ids).size).toBe(ids.length)
    const rest = (await owner.post("/jobs/activation", { type: "share-work", worker: "e", maxJobsToActivate: 50 }))
      .ok().jobs
    expect(ids.length + rest.length).toBe(20)
  })

  it("completions read their jobs together: each answers its own job, and another tenant's attempt stays 404", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const mine = await owner.deploy(oneTaskModel("batched"))
    const theirs = await stranger.deploy(oneTaskModel("batched"))
    for (let i = 0; i < 8; i++) {
      await owner.start(mine.id, { i })
      await stranger.start(theirs.id, { i })
    }
    const myJobs = await owner.activateJobs("batched-work", { maxJobsToActivate: 8 })
    const theirJobs = await stranger.activateJobs("batched-work", { maxJobsToActivate: 8 })
    expect(myJobs).toHaveLength(8)
    expect(theirJobs).toHaveLength(8)
    const [mineDone, theirsDone, trespass] = await Promise.all([
      Promise.all(myJobs.map((job: { id: string }) => owner.post(`/jobs/${job.id}/complete`, {}))),
      Promise.all(theirJobs.map((job: { id: string }) => stranger.post(`/jobs/${job.id}/complete`, {}))),
      Promise.all(myJobs.map((job: { id: string }) => stranger.post(`/jobs/${job.id}/fail`, { errorMessage: "x" })))
    ])
    for (const [done, jobs] of [[mineDone, myJobs], [theirsDone, theirJobs]] as const) {
      done.forEach((answer, i) => {
        const job = answer.ok()
        expect(job.id).toBe(jobs[i].id)
        expect(job.state).toBe("COMPLETED")
      })
    }
    expect(trespass.every((answer) => answer.status === 404)).toBe(true)
  })

  it("a job's commands refuse a task user (403) and bad input (400 naming the field), and change nothing", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const taskUser = await tenant.taskUser()
    const deployment = await owner.deploy(oneTaskModel("guarded"))
    await owner.start(deployment.id, {})
    const [job] = await owner.activateJobs("guarded-work")
    for (
      const [path, body] of [
        ["fail", { errorMessage: "x" }],
        ["error", { errorCode: "E" }],
        ["heartbeat", {}],
        ["retries", { retries: 3 }],
        ["retry-now", undefined],
        ["retry/cancel", undefined]
      ] as const
    ) {
      ;(await taskUser.post(`/jobs/${job.id}/${path}`, body)).fails(403, "FORBIDDEN")
    }
    for (
      const [path, body, field] of [
        ["fail", { retries: "three" }, "retries"],
        ["error", {}, "errorCode"],
        ["heartbeat", { timeout: "long" }, "timeout"],
        ["retries", { retries: -1 }, "retries"]
      ] as const
    ) {
      const refused = (await owner.post(`/jobs/${job.id}/${path}`, body)).fails(400, "VALIDATION_ERROR")
      expect(refused.errors.map((e: { field: string }) => e.field).join(" ")).toContain(field)
    }
    expect(await jobState(owner, job.processInstanceId)).toBe("ACTIVATED")
    expect((await owner.get(`/jobs/${job.id}/retry/history`)).ok()).toEqual([])
  })

  it("another tenant's job is not found, whatever the message", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("mine"))
    await owner.start(deployment.id, {})
    const [job] = await owner.activateJobs("mine-work")
    for (
      const [path, body] of [
        ["complete", {}],
        ["fail", { errorMessage: "x" }],
        ["error", { errorCode: "E" }],
        ["heartbeat", {}],
        ["retries", { retries: 3 }],
        ["retry-now", undefined]
      ] as const
    ) {
      expect((await stranger.post(`/jobs/${job.id}/${path}`, body)).status).toBe(404)
    }
    expect(await jobState(owner, job.processInstanceId)).toBe("ACTIVATED")
  })
})

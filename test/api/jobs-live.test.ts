// Jobs read the instance as it is: a worker gets the variables as they stand at activation (with the element's
// input mappings applied then), after a variable update, an edit-variables-and-retry or a rollback; a job whose lock
// keeps running out is dead-lettered after JOB_TIMEOUT_LIMIT expiries; a message reaching a suspended instance is
// reported as held and applied on resume.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const mapped = (key: string) => ({
  id: key,
  nodes: [
    { id: "start", type: "startEvent" },
    {
      id: "work",
      type: "serviceTask",
      properties: { taskType: `${key}-work`, inputMappings: [{ source: "= amount * 2", target: "doubled" }] }
    },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
})

describe("variables at activation", () => {
  it("follow updates of the instance, with input mappings applied at activation; fetchVariable is honoured", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(mapped("live"))
    const instance = await owner.start(deployment.id, { amount: 1, note: "n" })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { amount: 5 } })).ok()
    const [job] = await owner.activateJobs("live-work")
    expect(job.variables).toEqual({ amount: 5, note: "n", doubled: 10 })
    await owner.post(`/jobs/${job.id}/fail`, { retries: 1, errorMessage: "again" })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { amount: 6 } })).ok()
    const only = (await owner.post("/jobs/activation", {
      type: "live-work",
      worker: "w",
      maxJobsToActivate: 1,
      fetchVariable: ["doubled"]
    })).ok()
    expect(only.jobs).toMatchObject([{ id: job.id, variables: { doubled: 12 } }])
  })

  it("after edit-variables-and-retry and after a rollback, the same job carries the restored values", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(mapped("restore"))
    const edited = await owner.start(deployment.id, { amount: 1 })
    const [first] = await owner.activateJobs("restore-work")
    ;(await owner.post(`/jobs/${first.id}/fail`, { retries: 0, errorMessage: "bad amount" })).ok()
    const [incident] = (await owner.get(`/incidents?processInstanceId=${edited.id}`)).ok().items
    ;(await owner.post(`/incidents/${incident.id}/edit-variables-and-retry`, { variables: { amount: 7 } })).ok()
    const [again] = await owner.activateJobs("restore-work")
    expect(again).toMatchObject({ id: first.id, variables: { amount: 7, doubled: 14 } })

    const rolled = await owner.start(deployment.id, { amount: 1 })
    ;(await owner.put(`/process-instances/${rolled.id}/variables`, { variables: { amount: 9 } })).ok()
    const [job] = (await owner.activateJobs("restore-work")).filter((j: { processInstanceId: string }) =>
      j.processInstanceId === rolled.id
    )
    expect(job.variables).toMatchObject({ amount: 9, doubled: 18 })
    ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "bad" })).ok()
    const [toRollback] = (await owner.get(`/incidents?processInstanceId=${rolled.id}`)).ok().items
    const started = (await owner.history(rolled.id)).find((e: { type: string }) => e.type === "InstanceStarted")
    ;(await owner.post(`/incidents/${toRollback.id}/rollback`, { eventSeq: started.eventSeq })).ok()
    const [restored] = await owner.activateJobs("restore-work")
    expect(restored).toMatchObject({ processInstanceId: rolled.id, variables: { amount: 1, doubled: 2 } })
  })
})

describe("lock expiries", () => {
  it("are counted; at the limit the job fails into JOB_TIMEOUTS_EXCEEDED naming the count and the workers", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(mapped("poison"))
    const instance = await owner.start(deployment.id, { amount: 1 })
    const take = (worker: string) =>
      owner.post("/jobs/activation", { type: "poison-work", worker, maxJobsToActivate: 1, timeout: 1000 })
    const [job] = (await take("w-1")).ok().jobs
    for (const worker of ["w-2", "w-3"]) {
      tenant.app.clock.advance("2 seconds")
      expect((await take(worker)).ok().jobs.map((j: { id: string }) => j.id)).toEqual([job.id])
    }
    tenant.app.clock.advance("2 seconds")
    expect((await take("w-4")).ok().jobs).toEqual([])
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incident).toMatchObject({ type: "JOB_TIMEOUTS_EXCEEDED", jobId: job.id })
    expect(incident.message).toMatch(/timed out 3 times \(workers: w-1, w-2, w-3\)/)
    const history = (await owner.get(`/jobs/${job.id}/retry/history`)).ok()
    expect(history.map((h: { kind: string; worker: string | null }) => [h.kind, h.worker])).toEqual([
      ["LOCK_EXPIRED", "w-1"],
      ["LOCK_EXPIRED", "w-2"],
      ["LOCK_EXPIRED", "w-3"],
      ["FAILED", null]
    ]) // resolving the incident hands the job out again
    ;(await owner.post(`/incidents/${incident.id}/retry`)).ok()
    expect((await take("w-5")).ok().jobs.map((j: { id: string }) => j.id)).toEqual([job.id])
  })
})

describe("held messages", () => {
  it("a message reaching a suspended instance is held, reported as such, and applied on resume", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "held",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "wait",
          type: "intermediateCatchEvent",
          properties: { messageName: "held-msg", correlationKey: "= key" }
        },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "wait" }, { id: "f2", source: "wait", target: "end" }]
    })
    const instance = await owner.start(deployment.id, { key: "H-1" })
    ;(await owner.post(`/process-instances/${instance.id}/suspend`)).ok()
    const published =
      (await owner.post("/messages", { messageName: "held-msg", correlationKey: "H-1", variables: { paid: true } })).ok(
        202
      )
    expect(published).toMatchObject({ correlatedCount: 0, heldCount: 1, instanceIds: [instance.id] })
    expect((await owner.instance(instance.id)).state).toBe("SUSPENDED")
    ;(await owner.post(`/process-instances/${instance.id}/resume`)).ok()
    expect(await owner.instance(instance.id)).toMatchObject({
      state: "COMPLETED",
      variables: { key: "H-1", paid: true }
    })
  })
})

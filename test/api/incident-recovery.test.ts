// Failures and recovery through HTTP: job fail with retries and backoff, dead-lettering into an incident, new
// retries, heartbeats, and the incident actions (retry, skip-node, restart-from-node, rollback,
// edit-variables-and-retry).
import { describe, expect, it } from "vitest"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const twoTasks = (id: string) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "charge", type: "serviceTask", properties: { taskType: `${id}-charge`, retries: 2 } },
    { id: "ship", type: "serviceTask", properties: { taskType: `${id}-ship` } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "charge" }, { id: "f2", source: "charge", target: "ship" }, {
    id: "f3",
    source: "ship",
    target: "e"
  }]
})

const incidentsOf = async (caller: Caller, instanceId: string) =>
  (await caller.get(`/incidents?processInstanceId=${instanceId}`)).ok().items

describe("job failures", () => {
  it("fail uses up retries (with backoff), then dead-letters the job into an incident; new retries resolve it", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(twoTasks("fails"))
    const instance = await owner.start(deployment.id)
    const [first] = await owner.activateJobs("fails-charge")
    expect(first.retries).toBe(2)
    const failed = (await owner.post(`/jobs/${first.id}/fail`, {
      errorMessage: "gateway timeout",
      retryBackOff: 60_000,
      variables: { lastError: "timeout" }
    })).ok()
    expect((await owner.instance(instance.id)).variables).toMatchObject({ lastError: "timeout" })
    expect(failed).toMatchObject({ state: "ACTIVATABLE", retries: 1, errorMessage: "gateway timeout", worker: null })
    // The backoff holds it back until its time has come.
    expect(await owner.activateJobs("fails-charge")).toEqual([])
    tenant.app.clock.advance("61 seconds")
    const later = await tenant.owner()
    const [second] = await later.activateJobs("fails-charge")
    expect(second.id).toBe(first.id)
    const dead = (await later.post(`/jobs/${second.id}/fail`, { retries: 0, errorMessage: "card service down" })).ok()
    expect(dead).toMatchObject({ state: "FAILED", retries: 0 })
    const [incident] = await incidentsOf(later, instance.id)
    expect(incident).toMatchObject({
      type: "JOB_NO_RETRIES",
      nodeId: "charge",
      jobId: first.id,
      state: "OPEN",
      message: "card service down"
    })
    expect((await later.instance(instance.id)).incidentCount).toBe(1)
    ;(await later.post(`/jobs/${first.id}/fail`, {})).fails(409, "CONFLICT")

    const revived = (await later.post(`/jobs/${first.id}/retries`, { retries: 3 })).ok()
    expect(revived).toMatchObject({ state: "ACTIVATABLE", retries: 3 })
    expect((await incidentsOf(later, instance.id))[0].state).toBe("RESOLVED")
    expect((await later.instance(instance.id)).incidentCount).toBe(0)
    const [again] = await later.activateJobs("fails-charge")
    await later.completeJob(again.id)
    expect(await later.activateJobs("fails-ship")).toHaveLength(1)
    ;(await later.post(`/jobs/${first.id}/retries`, { retries: 0 })).fails(400, "VALIDATION_ERROR")
  })

  it("heartbeat extends the lock of an activated job, only for its worker", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(twoTasks("beats"))
    await owner.start(deployment.id)
    const [job] = await owner.activateJobs("beats-charge", { worker: "w1", timeout: 10_000 })
    tenant.app.clock.advance("8 seconds")
    const extended = (await owner.post(`/jobs/${job.id}/heartbeat`, { worker: "w1", timeout: 30_000 })).ok()
    expect(Date.parse(extended.deadline)).toBeGreaterThan(Date.parse(job.deadline))
    ;(await owner.post(`/jobs/${job.id}/heartbeat`, { worker: "w2" })).fails(409, "CONFLICT")
    tenant.app.clock.advance("10 seconds")
    // The old deadline has passed but the extended one has not: nobody else gets the job.
    expect(await (await tenant.owner()).activateJobs("beats-charge", { worker: "w3" })).toEqual([])
  })
})

describe("incident actions", () => {
  const waitsForKey = (id: string) => ({
    id,
    nodes: [
      { id: "s", type: "startEvent" },
      { id: "before", type: "serviceTask", properties: { taskType: `${id}-before` } },
      // A correlation key that evaluates to null: an incident when the token arrives.
      {
        id: "wait",
        type: "intermediateCatchEvent",
        properties: { messageName: `${id}-msg`, correlationKey: "= orderId" }
      },
      { id: "after", type: "serviceTask", properties: { taskType: `${id}-after` } },
      { id: "e", type: "endEvent" }
    ],
    flows: [
      { id: "f1", source: "s", target: "before" },
      { id: "f2", source: "before", target: "wait" },
      { id: "f3", source: "wait", target: "after" },
      { id: "f4", source: "after", target: "e" }
    ]
  })

  it("retry runs the node again: still failing keeps it open; after edit-variables-and-retry it goes on", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(waitsForKey("retrying"))
    const instance = await owner.start(deployment.id)
    const [before] = await owner.activateJobs("retrying-before")
    await owner.completeJob(before.id)
    const [incident] = await incidentsOf(owner, instance.id)
    expect(incident).toMatchObject({ nodeId: "wait", type: "EXTRACT_VALUE_ERROR", state: "OPEN" })

    expect((await owner.post(`/incidents/${incident.id}/retry`)).ok().state).toBe("RESOLVED")
    const reopened = (await incidentsOf(owner, instance.id)).filter((i: { state: string }) => i.state === "OPEN")
    expect(reopened).toHaveLength(1)
    ;(await owner.post(`/incidents/${incident.id}/retry`)).fails(409, "CONFLICT")
    ;(await owner.post(`/incidents/${reopened[0].id}/edit-variables-and-retry`, { variables: { orderId: "K-1" } })).ok()
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toMatchObject([{
      kind: "MESSAGE",
      correlationKey: "K-1"
    }])
    expect(
      (await owner.post("/messages", { messageName: "retrying-msg", correlationKey: "K-1" })).ok(202).correlatedCount
    ).toBe(1)
    expect(await owner.activateJobs("retrying-after")).toHaveLength(1)
    expect((await owner.instance(instance.id)).incidentCount).toBe(0)
  })

  it("skip-node goes past the failed node; restart-from-node continues elsewhere; rollback restores variables", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(waitsForKey("skipping"))

    const skipped = await owner.start(deployment.id)
    await owner.completeJob((await owner.activateJobs("skipping-before"))[0].id)
    const [toSkip] = await incidentsOf(owner, skipped.id)
    ;(await owner.post(`/incidents/${toSkip.id}/skip-node`)).ok()
    const [afterSkip] = await owner.activateJobs("skipping-after")
    expect(afterSkip.processInstanceId).toBe(skipped.id)
    expect((await owner.history(skipped.id)).map((e: { type: string }) => e.type)).toContain("NodeSkipped")

    const restarted = await owner.start(deployment.id)
    await owner.completeJob((await owner.activateJobs("skipping-before"))[0].id)
    const [toRestart] = await incidentsOf(owner, restarted.id)
    const nowhere = (await owner.post(`/incidents/${toRestart.id}/restart-from-node`, { nodeId: "nowhere" })).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(nowhere.errors[0].field).toBe("nodeId") // the request's field, not the command's targetNodeId
    expect((await owner.post(`/incidents/${toRestart.id}/restart-from-node`, { nodeId: "before" })).ok().state).toBe(
      "RESOLVED"
    )
    const [beforeAgain] = await owner.activateJobs("skipping-before")
    expect(beforeAgain.processInstanceId).toBe(restarted.id)

    // Rollback: variables as they were after the instance started (before the job wrote a bad orderId).
    const rolled = await owner.start(deployment.id, { orderId: "R-1" })
    await owner.completeJob((await owner.activateJobs("skipping-before"))[0].id, { orderId: null })
    const [toRollback] = await incidentsOf(owner, rolled.id)
    const started = (await owner.history(rolled.id)).find((e: { type: string }) => e.type === "InstanceStarted")
    ;(await owner.post(`/incidents/${toRollback.id}/rollback`, { eventSeq: started.eventSeq })).ok()
    expect((await owner.instance(rolled.id)).variables).toEqual({ orderId: "R-1" })
    expect((await owner.get(`/process-instances/${rolled.id}/event-subscriptions`)).ok()).toMatchObject([{
      correlationKey: "R-1"
    }])
  })

  it("another tenant's incident is 404; a dead-lettered job's incident retried makes the job activatable again", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const deployment = await owner.deploy(twoTasks("dead"))
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("dead-charge")
    ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 0 })).ok()
    const [incident] = await incidentsOf(owner, instance.id)
    ;(await stranger.post(`/incidents/${incident.id}/retry`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await owner.post(`/incidents/${incident.id}/retry`)).ok()
    const [again] = await owner.activateJobs("dead-charge")
    expect(again).toMatchObject({ id: job.id, retries: 1 })
  })
})

describe("retry policies", () => {
  it("an exponential policy spaces retries; retry-now skips the wait; cancel dead-letters; history lists each attempt", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy({
      ...twoTasks("policy"),
      nodes: twoTasks("policy").nodes.map((
        n
      ) => (n.id === "charge" ? { ...n, properties: { taskType: "policy-charge", retries: 5 } } : n))
    })
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("policy-charge", { worker: "w-a" })
    const set =
      (await owner.post(`/jobs/${job.id}/retry`, { policy: { backoff: "EXPONENTIAL", delay: 1000, multiplier: 3 } }))
        .ok()
    expect(set).toMatchObject({
      jobId: job.id,
      retries: 5,
      attempts: 0,
      waiting: false,
      policy: { backoff: "EXPONENTIAL", delay: 1000, multiplier: 3 }
    })

    const failedAt = tenant.app.clock.nowMillis()
    ;(await owner.post(`/jobs/${job.id}/fail`, { errorMessage: "first" })).ok()
    const afterFirst = (await owner.get(`/jobs/${job.id}/retry`)).ok()
    expect(afterFirst).toMatchObject({ retries: 4, attempts: 1, waiting: true })
    expect(Date.parse(afterFirst.nextRetryAt) - failedAt).toBeGreaterThanOrEqual(1000)
    expect(Date.parse(afterFirst.nextRetryAt) - failedAt).toBeLessThan(1500)
    ;(await owner.post(`/jobs/${job.id}/retry-now`)).ok()
    const [second] = await owner.activateJobs("policy-charge", { worker: "w-b" })
    expect(second.id).toBe(job.id)
    const secondFailedAt = tenant.app.clock.nowMillis()
    ;(await owner.post(`/jobs/${job.id}/fail`, { errorMessage: "second" })).ok()
    const afterSecond = (await owner.get(`/jobs/${job.id}/retry`)).ok()
    // Attempt 2: delay × 3.
    expect(Date.parse(afterSecond.nextRetryAt) - secondFailedAt).toBeGreaterThanOrEqual(3000)
    ;(await owner.post(`/jobs/${job.id}/retry-now`, undefined)).ok()
    ;(await owner.post(`/jobs/${job.id}/retry-now`)).fails(409, "CONFLICT")

    const [third] = await owner.activateJobs("policy-charge", { worker: "w-c" })
    ;(await owner.post(`/jobs/${third.id}/fail`, { errorMessage: "third", retryBackOff: 60_000 })).ok()
    const cancelled = (await owner.post(`/jobs/${job.id}/retry/cancel`)).ok()
    expect(cancelled).toMatchObject({ state: "FAILED", retries: 0, waiting: false })
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incident).toMatchObject({
      type: "JOB_NO_RETRIES",
      jobId: job.id,
      message: expect.stringContaining("pending retry canceled")
    })

    const history = (await owner.get(`/jobs/${job.id}/retry/history`)).ok()
    expect(
      history.map((
        h: { attempt: number; worker: string | null; errorMessage: string }
      ) => [h.attempt, h.worker, h.errorMessage])
    ).toEqual([
      [1, "w-a", "first"],
      [2, "w-b", "second"],
      [3, "w-c", "third"],
      [4, null, expect.stringContaining("pending retry canceled")]
    ])
    ;(await owner.post(`/jobs/${job.id}/retry`, { policy: { backoff: "SOMETIMES", delay: 1 } })).fails(
      400,
      "VALIDATION_ERROR"
    )
  })
})

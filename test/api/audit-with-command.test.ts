// The audit record of a call that commits an instance command is written in that command's commit (one commit for
// both, http/RequestAudit.ts), a job activation's in the statement that leases its jobs; every other call's record
// is written after its response. Either way: one record per call, saying what the response did.
// flowcore_audit_records_total tells the two ways apart.
import { describe, expect, it } from "vitest"
import { metricsText, metricSum, untilInFlight } from "../support/MetricsScrape.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

const oneTask = {
  id: "audited",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "audited-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

const auditWays = async () => {
  const text = await metricsText()
  const value = (way: string) => metricSum(text, "flowcore_audit_records_total", `written="${way}"`)
  return { withCommand: value("with_command"), alone: value("alone"), corrected: value("corrected") }
}

/** What one call adds to each way. */
const delta = async (call: () => Promise<unknown>) => {
  const before = await auditWays()
  await call()
  const after = await auditWays()
  return {
    withCommand: after.withCommand - before.withCommand,
    alone: after.alone - before.alone,
    corrected: after.corrected - before.corrected
  }
}

describe("audit records written with the instance's command", () => {
  it("rides with a start, a job's completion and a correlation; refusals and no-ops are written alone", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner("owner-a")
    const admin = await tenant.admin()
    const deployment = await owner.deploy(oneTask)
    const waiting = await owner.deploy(fixture("message-wait.bpmn"))
    let instanceId = ""
    const headers = (id: string) => ({ headers: { "x-correlation-id": id } })

    expect(
      await delta(async () => {
        instanceId = (await owner.call("POST", "/process-instances", {
          body: { deploymentId: deployment.id },
          ...headers("c-start")
        })).ok(201).id
      })
    ).toEqual({ withCommand: 1, alone: 0, corrected: 0 })
    const [job] = await owner.activateJobs("audited-work")
    expect(
      await delta(async () =>
        (await owner.call("POST", `/jobs/${job.id}/complete`, { body: { variables: {} }, ...headers("c-complete") }))
          .ok(200)
      )
    ).toEqual({ withCommand: 1, alone: 0, corrected: 0 })
    expect(
      await delta(async () =>
        (await owner.call("POST", `/jobs/${job.id}/complete`, { body: { variables: {} }, ...headers("c-again") }))
          .fails(409, "CONFLICT")
      )
    ).toEqual({ withCommand: 0, alone: 1, corrected: 0 })
    const waiter = await owner.start(waiting.id, { orderId: "W-1" })
    expect(
      await delta(async () =>
        expect(
          (await owner.call("POST", "/messages", {
            body: { messageName: "payment-received", correlationKey: "W-1" },
            ...headers("c-publish")
          })).ok(202).correlatedCount
        ).toBe(1)
      )
    ).toEqual({ withCommand: 1, alone: 0, corrected: 0 })
    expect(
      await delta(async () =>
        (await owner.call("POST", "/messages", {
          body: { messageName: "payment-received", correlationKey: "nobody" },
          ...headers("c-nothing")
        })).ok(202)
      )
    ).toEqual({ withCommand: 0, alone: 1, corrected: 0 })
    expect(
      await delta(async () =>
        (await owner.call("POST", "/process-instances", {
          body: { deploymentId: "00000000-0000-7000-8000-000000000000" },
          ...headers("c-missing")
        })).fails(404, "RESOURCE_NOT_FOUND")
      )
    ).toEqual({ withCommand: 0, alone: 1, corrected: 0 })

    const events = (await admin.get("/audit-events?size=100")).ok().items as ReadonlyArray<Record<string, unknown>>
    const byCorrelation = (id: string) => events.filter((event) => event["correlationId"] === id)
    for (const id of ["c-start", "c-complete", "c-again", "c-publish", "c-nothing", "c-missing"]) {
      expect(byCorrelation(id), id).toHaveLength(1)
    }
    expect(byCorrelation("c-start")[0]).toMatchObject({
      actor: "owner-a",
      tenantId: tenant.id,
      method: "POST",
      path: "/api/v1/process-instances",
      resourceKind: "process-instances",
      resourceId: instanceId,
      status: 201
    })
    expect(byCorrelation("c-complete")[0]).toMatchObject({ resourceKind: "jobs", resourceId: job.id, status: 200 })
    expect(byCorrelation("c-again")[0]).toMatchObject({ resourceId: job.id, status: 409 })
    expect(byCorrelation("c-publish")[0]).toMatchObject({ path: "/api/v1/messages", status: 202 })
    expect(byCorrelation("c-missing")[0]).toMatchObject({ status: 404 })
    expect(waiter.id).not.toBe(instanceId)
  })

  it("rides with the statement that leases an activation's jobs, also when it finds none", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner("owner-w")
    const admin = await tenant.admin()
    const deployment = await owner.deploy(oneTask)
    await owner.start(deployment.id)
    await owner.start(deployment.id)
    const activate = (id: string, body: Record<string, unknown>) =>
      owner.call("POST", "/jobs/activation", {
        body: { type: "audited-work", worker: "looker", ...body },
        headers: { "x-correlation-id": id }
      })
    let found: ReadonlyArray<unknown> = []
    expect(
      await delta(async () => (found = (await activate("c-found", { maxJobsToActivate: 5 })).ok(200).jobs))
    ).toEqual({ withCommand: 1, alone: 0, corrected: 0 })
    expect(found).toHaveLength(2)
    expect(await delta(async () => expect((await activate("c-none", {})).ok(200).jobs).toEqual([])))
      .toEqual({ withCommand: 1, alone: 0, corrected: 0 })
    // A refused activation leases nothing: its record is written alone, with its status.
    expect(await delta(async () => (await activate("c-bad", { maxJobsToActivate: 0 })).fails(400, "VALIDATION_ERROR")))
      .toEqual({ withCommand: 0, alone: 1, corrected: 0 })

    const events = (await admin.get("/audit-events?size=100")).ok().items as ReadonlyArray<Record<string, unknown>>
    const byCorrelation = (id: string) => events.filter((event) => event["correlationId"] === id)
    for (const [id, status] of [["c-found", 200], ["c-none", 200], ["c-bad", 400]] as const) {
      expect(byCorrelation(id), id).toHaveLength(1)
      expect(byCorrelation(id)[0], id).toMatchObject({
        actor: "owner-w",
        tenantId: tenant.id,
        method: "POST",
        path: "/api/v1/jobs/activation",
        status
      })
    }
  })

  it("writes one record per call when concurrent completions of one job share a command id", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const admin = await tenant.admin()
    const deployment = await owner.deploy(oneTask)
    await owner.start(deployment.id)
    const [job] = await owner.activateJobs("audited-work")
    const ids = ["twin-1", "twin-2", "twin-3"]
    await Promise.all(ids.map(async (id) => {
      const response = await owner.call("POST", `/jobs/${job.id}/complete`, {
        body: { variables: {} },
        headers: { "x-correlation-id": id }
      })
      expect([200, 409]).toContain(response.status)
    }))
    const events = (await admin.get("/audit-events?size=100")).ok().items as ReadonlyArray<Record<string, unknown>>
    for (const id of ids) expect(events.filter((event) => event["correlationId"] === id), id).toHaveLength(1)
  })

  it("writes a waiting worker's record with the commit that leases it the job it is handed (job push)", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const admin = await tenant.admin()
    const deployment = await owner.deploy(oneTask)
    const pushedTotal = async () => metricSum(await metricsText(), "flowcore_jobs_pushed_total")
    // Whether the poll already waits when the job is created (push) or still looks (it then finds the job itself)
    // is up to timing: the round is repeated until a push happened. Either way each call has one record.
    let pushedRound: { withCommand: number; alone: number } | undefined
    for (let round = 0; round < 40 && pushedRound === undefined; round++) {
      const pushedBefore = await pushedTotal()
      const before = await auditWays()
      const polling = owner.call("POST", "/jobs/activation", {
        body: { type: "audited-work", worker: "waiter", maxJobsToActivate: 1, requestTimeout: 30_000 },
        headers: { "x-correlation-id": `c-poll-${round}` }
      })
      await untilInFlight()
      await owner.call("POST", "/process-instances", {
        body: { deploymentId: deployment.id },
        headers: { "x-correlation-id": `c-started-${round}` }
      })
      const { jobs } = (await polling).ok(200)
      expect(jobs).toHaveLength(1)
      const after = await auditWays()
      if ((await pushedTotal()) > pushedBefore) {
        pushedRound = { withCommand: after.withCommand - before.withCommand, alone: after.alone - before.alone }
      }
      const events = (await admin.get("/audit-events?size=100")).ok().items as ReadonlyArray<Record<string, unknown>>
      for (const id of [`c-poll-${round}`, `c-started-${round}`]) {
        const records = events.filter((event) => event["correlationId"] === id)
        expect(records, id).toHaveLength(1)
        expect(records[0]!["status"], id).toBe(id.startsWith("c-poll") ? 200 : 201)
      }
      ;(await owner.post(`/jobs/${jobs[0].id}/complete`, {})).ok()
    }
    expect(pushedRound).toEqual({ withCommand: 2, alone: 0 })
  })
})

// Insights over a tenant's instances, jobs and tasks; the report grouped by a variable; the summary rebuild.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const model = (id: string) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: `${id}-work` } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
})

describe("insights", () => {
  it("measures completion rate, durations and job reliability; the report groups by a variable", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(model("ins-orders"))
    const a = await owner.start(deployment.id, { region: "north" })
    const b = await owner.start(deployment.id, { region: "north" })
    const c = await owner.start(deployment.id, { region: "south" })
    tenant.app.clock.advance("10 seconds")
    const fresh = await tenant.owner()
    const jobs = await fresh.activateJobs("ins-orders-work", { maxJobsToActivate: 3 })
    const jobOf = (instanceId: string) =>
      jobs.find((j: { processInstanceId: string }) => j.processInstanceId === instanceId)
    ;(await fresh.post(`/jobs/${jobOf(a.id).id}/fail`, { retries: 2 })).ok()
    const [again] = await fresh.activateJobs("ins-orders-work")
    await fresh.completeJob(again.id)
    await fresh.completeJob(jobOf(b.id).id)
    ;(await fresh.post(`/process-instances/${c.id}/cancel`)).ok()

    const insights = (await fresh.get("/insights?processKey=ins-orders")).ok()
    expect(insights.processes).toEqual([{
      processKey: "ins-orders",
      started: 3,
      completed: 2,
      canceled: 1,
      running: 0,
      withIncidents: 0,
      completionRate: 0.6667,
      duration: { avg: expect.any(Number), p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) }
    }])
    expect(insights.processes[0].duration.avg).toBeGreaterThanOrEqual(10_000)
    expect(insights.jobs).toEqual([{
      type: "ins-orders-work",
      total: 3,
      completed: 2,
      deadLettered: 0,
      failures: 1,
      firstTimeSuccessRate: 0.5
    }])

    const report = (await fresh.get("/insights/report?processKey=ins-orders&groupBy=region")).ok()
    expect(report).toMatchObject({ metric: "COMPLETION_RATE", groupBy: "region" })
    expect(
      report.groups.map((g: { group: string; instances: number; value: number }) => [g.group, g.instances, g.value])
    ).toEqual([
      ["north", 2, 1],
      ["south", 1, 0]
    ])
    const byDuration = (await fresh.get("/insights/report?processKey=ins-orders&metric=DURATION")).ok()
    expect(byDuration.groups).toHaveLength(1)
    expect(byDuration.groups[0].value).toBeGreaterThanOrEqual(10_000)
    ;(await fresh.get("/insights?from=yesterday")).fails(400, "VALIDATION_ERROR")
    // Another tenant sees none of it.
    expect((await (await (await givenTenant()).owner()).get("/insights?processKey=ins-orders")).ok().processes).toEqual(
      []
    )
  })

  it("rebuilds the instance summary from history, correcting a damaged row (ADMIN only)", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const admin = await tenant.admin()
    const deployment = await owner.deploy(model("ins-rebuild"))
    const instance = await owner.start(deployment.id, { n: 1 })
    await owner.start(deployment.id)
    await tenant.app.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE process_instances SET variables = '{"n": 99}'::jsonb, incident_count = 7 WHERE id = ${instance.id}`
      )
    )
    expect((await owner.instance(instance.id)).variables).toEqual({ n: 99 })
    ;(await owner.post("/admin/projections/instance-summary/rebuild")).fails(403, "FORBIDDEN")
    const result = (await admin.post("/admin/projections/instance-summary/rebuild")).ok()
    expect(result).toMatchObject({ projection: "instance-summary", instances: 2, corrected: 1 })
    expect(await owner.instance(instance.id)).toMatchObject({ variables: { n: 1 }, incidentCount: 0 })
    expect((await admin.post("/admin/projections/instance-summary/rebuild")).ok().corrected).toBe(0)
  })
})

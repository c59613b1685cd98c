// Batch operations through HTTP: accepted with 202, worked off in the background, each item with its outcome.
import { describe, expect, it } from "vitest"
import { BatchRunner } from "../../src/cluster/BatchRunner.ts"
import { type Caller, givenTenant, type Tenant } from "../support/Scenario.ts"

const waitingModel = (id: string, taskType: string) => ({
  id,
  nodes: [{ id: "s", type: "startEvent" }, { id: "work", type: "serviceTask", properties: { taskType } }, {
    id: "e",
    type: "endEvent"
  }],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
})

/** Lets the runner work off what is pending, then reads the batch. */
const finished = async (tenant: Tenant, caller: Caller, id: string) => {
  await tenant.app.runtime.runPromise(BatchRunner.use((runner) => runner.flush))
  return (await caller.get(`/batch-operations/${id}`)).ok()
}

describe("batch operations", () => {
  it("CANCEL by ids: every running instance is canceled; an unknown id fails alone", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(waitingModel("batch-cancel", "batch-cancel-work"))
    const a = await owner.start(deployment.id)
    const b = await owner.start(deployment.id)
    const created = (await owner.post("/batch-operations", {
      type: "CANCEL",
      targetIds: [a.id, b.id, "00000000-0000-4000-8000-000000000000"]
    })).ok(202)
    expect(created).toMatchObject({ type: "CANCEL", total: 3 })
    const batch = await finished(tenant, owner, created.id)
    expect(batch).toMatchObject({ state: "COMPLETED", total: 3, pending: 0, succeeded: 2, failed: 1 })
    expect(batch.items[2]).toMatchObject({
      targetId: "00000000-0000-4000-8000-000000000000",
      state: "FAILED",
      message: expect.stringContaining("not found")
    })
    expect((await owner.instance(a.id)).state).toBe("CANCELED")
    expect((await owner.instance(b.id)).state).toBe("CANCELED")
  })

  it("SET_VARIABLES and MIGRATE by filter select the running instances of a process", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const v1 = await owner.deploy(waitingModel("batch-flow", "batch-flow-work"))
    const instances = [await owner.start(v1.id), await owner.start(v1.id)]
    const set = (await owner.post("/batch-operations", {
      type: "SET_VARIABLES",
      filter: { processKey: "batch-flow" },
      variables: { priority: "high" }
    })).ok(202)
    expect((await finished(tenant, owner, set.id)).succeeded).toBe(2)
    for (const instance of instances) {
      expect((await owner.instance(instance.id)).variables).toEqual({ priority: "high" })
    }

    const v2 = await owner.deploy(waitingModel("batch-flow", "batch-flow-work"))
    const migrate = (await owner.post("/batch-operations", {
      type: "MIGRATE",
      filter: { deploymentId: v1.id },
      migration: { targetDeploymentId: v2.id, mapEqualNodes: true }
    })).ok(202)
    expect((await finished(tenant, owner, migrate.id)).succeeded).toBe(2)
    for (const instance of instances) expect((await owner.instance(instance.id)).deploymentId).toBe(v2.id)
  })

  it("RETRY revives FAILED jobs and RESOLVE_INCIDENT retries incidents", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(waitingModel("batch-retry", "batch-retry-work"))
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("batch-retry-work")
    ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 0 })).ok()
    const retry =
      (await owner.post("/batch-operations", { type: "RETRY", filter: { processKey: "batch-retry" }, retries: 2 })).ok(
        202
      )
    expect(retry.total).toBe(1)
    expect((await finished(tenant, owner, retry.id)).items[0]).toMatchObject({ targetId: job.id, state: "SUCCEEDED" })
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items[0]).toMatchObject({
      state: "ACTIVATABLE",
      retries: 2
    })

    const [again] = await owner.activateJobs("batch-retry-work")
    ;(await owner.post(`/jobs/${again.id}/fail`, { retries: 0 })).ok()
    const resolve = (await owner.post("/batch-operations", { type: "RESOLVE_INCIDENT", filter: { hasIncident: true } }))
      .ok(202)
    expect((await finished(tenant, owner, resolve.id)).succeeded).toBe(1)
    expect((await owner.instance(instance.id)).incidentCount).toBe(0)
  })

  it("refuses bad requests clearly; an empty selection completes at once; another tenant's batch is 404", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    expect((await owner.post("/batch-operations", { type: "CANCEL" })).fails(400, "VALIDATION_ERROR").errors[0].field)
      .toBe("targetIds")
    expect(
      (await owner.post("/batch-operations", { type: "SET_VARIABLES", targetIds: [] })).fails(400, "VALIDATION_ERROR")
        .errors[0].field
    ).toBe("variables")
    ;(await owner.post("/batch-operations", { type: "EXPLODE", targetIds: [] })).fails(400, "VALIDATION_ERROR")
    ;(await owner.post("/batch-operations", {
      type: "MIGRATE",
      targetIds: [],
      migration: { targetDeploymentId: "00000000-0000-4000-8000-000000000000" }
    }))
      .fails(404, "RESOURCE_NOT_FOUND")
    const empty = (await owner.post("/batch-operations", { type: "CANCEL", filter: { processKey: "nothing-here" } }))
      .ok(202)
    expect(empty).toMatchObject({ state: "COMPLETED", total: 0, items: [] })
    const stranger = await (await givenTenant()).owner()
    ;(await stranger.get(`/batch-operations/${empty.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await (await tenant.taskUser()).post("/batch-operations", { type: "CANCEL", targetIds: [] })).fails(
      403,
      "FORBIDDEN"
    )
  })
})

// A node holds at most MAX_RESIDENT_ENTITIES entities in memory. Past that, a command for an instance not in memory
// waits a moment for a slot and then answers 503 with Retry-After — busy, not broken: never a 500, nothing half done.
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { Tenant } from "../support/Scenario.ts"
import { bootApp, type TestApp, testConfig } from "../support/TestApp.ts"

const waiting = {
  id: "resident",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "resident-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

describe("resident entities", () => {
  let app: TestApp | undefined
  afterAll(async () => {
    await app?.runtime.dispose()
  })

  it("past the cap, a start answers 503 with Retry-After, and only the answered starts exist", async () => {
    const CAP = 30
    app = await bootApp({
      // An app of its own on the embedded database: on a shared PostgreSQL its runner would wait for the shards the
      // suite's shared app holds.
      databaseUrl: undefined,
      // Instances stay in memory for the whole test: the cap is reached and no slot frees up.
      entityIdleSeconds: 600,
      cluster: { ...testConfig().cluster, maxResidentEntities: CAP }
    })
    const owner = await new Tenant(app, randomUUID()).owner()
    const deployment = await owner.deploy(waiting)
    const statuses: Array<number> = []
    for (let round = 0; round < 4; round++) {
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => owner.post("/process-instances", { deploymentId: deployment.id }))
      )
      for (const reply of replies) {
        statuses.push(reply.status)
        if (reply.status === 503) {
          expect(reply.headers.get("retry-after")).toBe("1")
          expect(reply.body).toMatchObject({ success: false, message: expect.stringMatching(/limit of instances/) })
        }
      }
    }
    expect(statuses.every((status) => status === 201 || status === 503)).toBe(true)
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0)
    const created = statuses.filter((status) => status === 201).length
    expect(created).toBeLessThanOrEqual(CAP)
    const listed = (await owner.get(`/process-instances?deploymentId=${deployment.id}&size=1`)).ok()
    expect(listed.totalItems).toBe(created)
  }, 60_000)
})

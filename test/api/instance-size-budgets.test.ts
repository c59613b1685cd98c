// What one piece of work may take: an instance's whole state at most 10 MiB (a row the database client can read back),
// a command's expressions at most 2 s together, an activation's input mappings and answer bounded — each refused or
// cut short with a clear answer, where before an instance could become unreadable, one request could hold the node
// for as long as there were inner instances, and an activation could exhaust its memory.
import { describe, expect, it } from "vitest"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant } from "../support/Scenario.ts"

/** A parallel multi-instance service task (type `sized-each`) over `items`, mapping `mapping` into `mapped`. */
const eachMapping = (mapping: string) => ({
  id: "sized-each",
  nodes: [
    { id: "s", type: "startEvent" },
    {
      id: "each",
      type: "serviceTask",
      properties: {
        taskType: "sized-each",
        multiInstance: { sequential: false, inputCollection: "= items", inputElement: "item" },
        inputMappings: [{ source: mapping, target: "mapped" }]
      }
    },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "each" }, { id: "f2", source: "each", target: "e" }]
})

describe("an instance's state", () => {
  it("may take at most 10 MiB: a command that would grow it past is 422, and the instance stays readable", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("sized"))
    const instance = await owner.start(deployment.id)
    const nodeVariables = `/process-instances/${instance.id}/nodes/work/variables`
    const large = "y".repeat(3_500_000)
    ;(await owner.put(nodeVariables, { variables: { first: large } })).ok()
    ;(await owner.put(nodeVariables, { variables: { second: large } })).ok()
    const refused = (await owner.put(nodeVariables, { variables: { third: large } })).fails(422, "BUSINESS_ERROR")
    expect(refused.errors[0]).toMatchObject({ field: "process", code: "INSTANCE_TOO_LARGE" })
    ;(await owner.get(`/process-instances/${instance.id}/tokens`)).ok()
    ;(await owner.get("/jobs")).ok()
    ;(await owner.post(`/process-instances/${instance.id}/cancel`, {})).ok()
    expect((await owner.instance(instance.id)).state).toBe("CANCELED")
  }, 60_000)
})

describe("a command's expressions", () => {
  it("may take 2 s together: a costly mapping per inner instance is refused with 422, nothing applied", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(eachMapping("= count(for i in 1..900000 return i)"))
    const refused = (await owner.post("/process-instances", {
      deploymentId: deployment.id,
      variables: { items: Array.from({ length: 200 }, (_, i) => i) }
    })).fails(422, "BUSINESS_ERROR")
    expect(refused.errors[0]).toMatchObject({ field: "process", code: "RUN_BUDGET_EXCEEDED" })
    expect(refused.message).toMatch(/expressions ran longer than 2000 ms together/)
    expect((await owner.get(`/process-instances?deploymentId=${deployment.id}`)).ok().items).toHaveLength(0)
  }, 60_000)
})

describe("an activation", () => {
  it("answers the jobs whose mapped variables fit its 16 MiB and gives the others back", async () => {
    const owner = await (await givenTenant()).owner()
    // each job maps a 900,000-character string: 18 fit in an answer
    const deployment = await owner.deploy(eachMapping(`= string join(for i in 1..9000 return "${"z".repeat(100)}")`))
    await owner.start(deployment.id, { items: Array.from({ length: 30 }, (_, i) => i) })
    const first = await owner.activateJobs("sized-each", { maxJobsToActivate: 30 })
    expect(first.length).toBeGreaterThan(0)
    expect(first.length).toBeLessThan(30)
    expect(first.every((job) => job.variables.mapped.length === 900_000)).toBe(true)
    const taken = new Set(first.map((job) => job.id))
    for (let round = 0; round < 5 && taken.size < 30; round++) {
      for (const job of await owner.activateJobs("sized-each", { maxJobsToActivate: 30 })) taken.add(job.id)
    }
    expect(taken.size).toBe(30)
  }, 60_000)
})

// Variables a request sets are refused when the body is decoded, with a 400 on `variables`, if a name is empty or over
// 200 characters (no `.../variables/{name}` path could address it) or they take over 4 MiB as JSON (more than an
// instance may hold): a batch fails up front rather than on every item, and no body sets the unaddressable "".
import { describe, expect, it } from "vitest"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant } from "../support/Scenario.ts"

const refusedOnVariables = (reply: { fails: (status: number, code: string) => any }) =>
  expect(reply.fails(400, "VALIDATION_ERROR").errors[0].field).toBe("variables")

describe("variables in request bodies", () => {
  it("a batch SET_VARIABLES with an invalid name is a 400 up front, not a batch whose every item fails", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("batch-names"))
    const instance = await owner.start(deployment.id)
    for (const variables of [{ ["n".repeat(250)]: 1 }, { "": 1 }, { big: "x".repeat(4 * 1024 * 1024) }]) {
      refusedOnVariables(
        await owner.post("/batch-operations", { type: "SET_VARIABLES", targetIds: [instance.id], variables })
      )
    }
    expect((await owner.instance(instance.id)).variables).toEqual({})
  })

  it("the empty name is refused wherever a body sets variables; the instance is as it was", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("empty-names"))
    refusedOnVariables(await owner.post("/process-instances", { deploymentId: deployment.id, variables: { "": 1 } }))
    const instance = await owner.start(deployment.id, { kept: 1 })
    refusedOnVariables(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { "": 2 } }))
    refusedOnVariables(
      await owner.put(`/process-instances/${instance.id}/nodes/work/variables`, { variables: { "": 3 } })
    )
    const [job] = await owner.activateJobs("empty-names-work")
    refusedOnVariables(await owner.post(`/jobs/${job.id}/complete`, { variables: { "": 4 } }))
    refusedOnVariables(await owner.post(`/jobs/${job.id}/fail`, { retries: 1, variables: { "": 5 } }))
    expect((await owner.instance(instance.id)).variables).toEqual({ kept: 1 })
    await owner.completeJob(job.id, { done: true })
    expect((await owner.instance(instance.id)).variables).toEqual({ kept: 1, done: true })
  })

  it("a node's variables follow the same rule: names of 1 to 200 characters, at most 4 MiB", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("node-names"))
    const instance = await owner.start(deployment.id)
    const nodeVariables = `/process-instances/${instance.id}/nodes/work/variables`
    refusedOnVariables(await owner.put(nodeVariables, { variables: { ["n".repeat(250)]: 1 } }))
    refusedOnVariables(await owner.put(nodeVariables, { variables: { big: "x".repeat(5 * 1024 * 1024) } }))
    ;(await owner.put(nodeVariables, { variables: { ["v".repeat(200)]: 1 } })).ok()
  })
})

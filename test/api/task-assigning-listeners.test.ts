// User task assigning listeners over HTTP (Camunda 8.8): an assignment (assign, claim, unclaim) of a task whose model
// has them waits for their jobs; a listener may correct the assignee or deny the assignment.
import { describe, expect, it } from "vitest"
import { reviewModel, taskListeners } from "../support/ReviewModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = reviewModel({
  processId: "assigned-review",
  extensions: taskListeners(`<zeebe:taskListener eventType="assigning" type="check-assignee" />`)
})

describe("user task assigning listeners", () => {
  it("assign: the assignee changes once the listener completed, as it corrected it", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const instance = await owner.start((await owner.deploy(model)).id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    const reply = (await owner.post(`/tasks/${task.id}/assign`, { assignee: "erin" })).ok()
    // not final until the listener has completed
    expect(reply.assignee).toBeNull()
    const [check] = await owner.activateJobs("check-assignee")
    expect(check.customHeaders).toMatchObject({ "io.camunda.zeebe:assignee": "erin" }) // the task cannot be completed meanwhile
    ;(await owner.post(`/tasks/${task.id}/complete`, { variables: {} })).fails(409, "CONFLICT")
    ;(await owner.post(`/jobs/${check.id}/complete`, {
      result: { type: "userTask", corrections: { assignee: "frank" } }
    })).ok()
    const [assigned] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(assigned.assignee).toBe("frank")
  })

  it("claim: a denial keeps the task unassigned", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const instance = await owner.start((await owner.deploy(model)).id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    const worker = await tenant.taskUser("gina")
    ;(await worker.post(`/tasks/${task.id}/claim`, {})).ok()
    const [check] = await owner.activateJobs("check-assignee")
    expect(check.customHeaders["io.camunda.zeebe:assignee"]).toBe("gina")
    ;(await owner.post(`/jobs/${check.id}/complete`, {
      result: { type: "userTask", denied: true, deniedReason: "not in the team" }
    })).ok()
    const [still] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(still.assignee).toBeNull() // a new attempt runs the listener again; approved, the claim takes effect
    ;(await worker.post(`/tasks/${task.id}/claim`, {})).ok()
    const [again] = await owner.activateJobs("check-assignee")
    await owner.completeJob(again.id)
    const [claimed] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(claimed.assignee).toBe("gina")
    await worker.completeTask(task.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})

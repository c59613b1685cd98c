// User task updates over HTTP (PATCH /tasks/{id}, Camunda 8.8's user task update): without listeners the task changes
// at once; with updating listeners it changes once they have completed, as they corrected it, or not when denied.
import { describe, expect, it } from "vitest"
import { freshProcessId, reviewModel, taskListeners } from "../support/ReviewModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = (listeners: string) =>
  reviewModel({ processId: freshProcessId("updated-review"), extensions: taskListeners(listeners) })

describe("user task updates and updating listeners", () => {
  it("without listeners: the task changes at once", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start(
      (await owner.deploy(model(`<zeebe:taskListener eventType="completing" type="unused-check" />`))).id
    )
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    const updated = (await owner.patch(`/tasks/${task.id}`, {
      priority: 90,
      dueDate: "2026-12-24T18:00:00+01:00",
      candidateGroups: ["night-shift"]
    })).ok()
    expect(updated).toMatchObject({ priority: 90, candidateGroups: ["night-shift"] })
    expect(Date.parse(updated.dueDate)).toBe(Date.parse("2026-12-24T17:00:00Z"))
    ;(await owner.patch(`/tasks/${task.id}`, { priority: 101 })).fails(400, "VALIDATION_ERROR")
  })

  it("with updating listeners: changed once they completed, as corrected; a denial changes nothing", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start(
      (await owner.deploy(model(`<zeebe:taskListener eventType="updating" type="update-policy" />`))).id
    )
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    const reply = (await owner.patch(`/tasks/${task.id}`, { priority: 95 })).ok()
    expect(reply.priority).toBe(50)
    const [policy] = await owner.activateJobs("update-policy")
    expect(policy.customHeaders).toMatchObject({ "io.camunda.zeebe:priority": "95" })
    ;(await owner.post(`/jobs/${policy.id}/complete`, {
      result: { type: "userTask", corrections: { priority: 70 } }
    })).ok()
    expect((await owner.tasks(`?processInstanceId=${instance.id}`))[0].priority).toBe(70)
    ;(await owner.patch(`/tasks/${task.id}`, { candidateUsers: ["zoe"] })).ok()
    const [again] = await owner.activateJobs("update-policy")
    ;(await owner.post(`/jobs/${again.id}/complete`, { result: { type: "userTask", denied: true } })).ok()
    const [unchanged] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(unchanged).toMatchObject({ priority: 70, candidateUsers: [] })
  })
})

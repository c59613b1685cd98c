// User task listeners over HTTP (Camunda 8.8's zeebe:taskListeners): creating listeners run before the task exists and
// may correct it; completing listeners run before a completion takes effect and may deny it.
import { describe, expect, it } from "vitest"
import { freshProcessId, reviewModel, taskListeners } from "../support/ReviewModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = (listeners: string) =>
  reviewModel({
    processId: freshProcessId("reviewed"),
    extensions: `<zeebe:assignmentDefinition assignee="nobody" />${taskListeners(listeners)}`
  })

describe("user task listeners", () => {
  it("creating: the task appears once its listener completed, with the listener's corrections", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      model(`<zeebe:taskListener eventType="creating" type="route-task" />`)
    )
    const instance = await owner.start(deployment.id, { region: "EU" })
    expect(await owner.tasks(`?processInstanceId=${instance.id}`)).toEqual([])
    const [route] = await owner.activateJobs("route-task")
    expect(route.variables.region).toBe("EU")
    ;(await owner.post(`/jobs/${route.id}/complete`, {
      result: { type: "userTask", corrections: { assignee: "erin", priority: 80, candidateGroups: ["eu-review"] } }
    })).ok()
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(task).toMatchObject({ assignee: "erin", priority: 80, candidateGroups: ["eu-review"] })
  })

  it("completing: a denial keeps the task open; an approval completes it with the completion's variables", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      model(`<zeebe:taskListener eventType="completing" type="check-review" />`).replace(`assignee="nobody"`, "")
    )
    const instance = await owner.start(deployment.id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    await owner.completeTask(task.id, { verdict: "ok" })
    // the completion waits for its listener
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE") // the same request again is the same command: answered as the first, nothing applied twice
    ;(await owner.post(`/tasks/${task.id}/complete`, { variables: { verdict: "ok" } })).ok()
    expect(await owner.activateJobs("check-review", { maxJobsToActivate: 10 })).toHaveLength(1)
    const [first] = (await owner.get(`/jobs?type=check-review&processInstanceId=${instance.id}`)).ok().items
    ;(await owner.post(`/jobs/${first.id}/complete`, {
      result: { type: "userTask", denied: true, deniedReason: "missing evidence" }
    })).ok()
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    const [open] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(open.state).toBe("CREATED")
    await owner.completeTask(task.id, { verdict: "approved" })
    const [second] = await owner.activateJobs("check-review")
    await owner.completeJob(second.id)
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables.verdict).toBe("approved")
  })
})

// Process instances through HTTP: start, jobs, tasks, history, suspend/resume, cancel, delete, isolation, roles.
import { describe, expect, it } from "vitest"
import { fixture, givenTenant } from "../support/Scenario.ts"

describe("a service task process", () => {
  it("starts, hands a job to a worker, completes, and records the history oldest first with the caller", async () => {
    const owner = await (await givenTenant()).owner("order-service")
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id, { orderId: "A-1", amount: 42 })
    expect(instance).toMatchObject({
      state: "ACTIVE",
      deploymentId: deployment.id,
      processKey: "charge-order",
      version: 1,
      incidentCount: 0
    })
    expect(instance.variables).toEqual({ orderId: "A-1", amount: 42 })

    const [job, ...more] = await owner.activateJobs("charge-card", { worker: "w1" })
    expect(more).toEqual([])
    expect(job).toMatchObject({
      type: "charge-card",
      processInstanceId: instance.id,
      nodeId: "charge",
      state: "ACTIVATED",
      worker: "w1",
      retries: 3,
      customHeaders: { currency: "EUR" }
    })
    expect(job.variables).toMatchObject({ orderId: "A-1", amount: 42 })
    expect(await owner.activateJobs("charge-card")).toEqual([])

    const completed = await owner.completeJob(job.id, { receipt: "R-9" })
    expect(completed.state).toBe("COMPLETED")
    const done = await owner.instance(instance.id)
    expect(done).toMatchObject({ state: "COMPLETED", variables: { orderId: "A-1", amount: 42, receipt: "R-9" } })
    expect(done.endedAt).not.toBeNull()

    const history = await owner.history(instance.id)
    expect(history.map((e: { eventSeq: number }) => e.eventSeq)).toEqual(history.map((_: unknown, i: number) => i + 1))
    expect(history[0].sub).toBe("order-service")
    const nodes = history.map((e: { nodeId: string | null }) => e.nodeId).filter(Boolean)
    expect(nodes.indexOf("start")).toBeLessThan(nodes.indexOf("charge"))
    expect(nodes.lastIndexOf("end")).toBeGreaterThan(nodes.lastIndexOf("charge"))
    ;(await owner.post(`/jobs/${job.id}/complete`, {})).fails(409, "CONFLICT")
  })

  it("lets a lock expire so another worker can take the job", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    await owner.start(deployment.id)
    const [first] = await owner.activateJobs("charge-card", { worker: "slow", timeout: 1000 })
    expect(await owner.activateJobs("charge-card", { worker: "fast" })).toEqual([])
    tenant.app.clock.advance("2 seconds")
    const [again] = await owner.activateJobs("charge-card", { worker: "fast" })
    expect(again.id).toBe(first.id)
    expect(again.worker).toBe("fast")
  })
})

describe("a user task with a gateway", () => {
  it("creates a human task for the candidate group, and the completion's variables pick the path", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("approval.bpmn"))
    const instance = await owner.start(deployment.id, { request: "laptop" })
    const reviewer = await tenant.taskUser("rita")
    const [task] = await reviewer.tasks("?candidateGroup=reviewers&state=CREATED")
    expect(task).toMatchObject({
      processInstanceId: instance.id,
      nodeId: "review",
      name: "Review request",
      candidateGroups: ["reviewers"],
      assignee: null
    })
    await reviewer.completeTask(task.id, { approved: true })
    const [notify] = await owner.activateJobs("notify")
    expect(notify.processInstanceId).toBe(instance.id)
    await owner.completeJob(notify.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")

    const second = await owner.start(deployment.id)
    const [task2] = await reviewer.tasks(`?processInstanceId=${second.id}`)
    await reviewer.completeTask(task2.id, { approved: false })
    expect((await owner.instance(second.id)).state).toBe("COMPLETED")
    expect(await owner.activateJobs("notify")).toEqual([])
  })
})

describe("operating instances", () => {
  it("suspends (jobs cannot be activated), resumes, cancels (jobs withdrawn) and deletes only finished instances", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id)
    expect((await owner.post(`/process-instances/${instance.id}/suspend`)).ok().state).toBe("SUSPENDED")
    expect(await owner.activateJobs("charge-card")).toEqual([])
    ;(await owner.post(`/process-instances/${instance.id}/suspend`)).fails(409, "CONFLICT")
    expect((await owner.post(`/process-instances/${instance.id}/resume`)).ok().state).toBe("ACTIVE")
    expect(await owner.activateJobs("charge-card")).toHaveLength(1)
    ;(await owner.delete(`/process-instances/${instance.id}`)).fails(422, "BUSINESS_ERROR")
    expect((await owner.post(`/process-instances/${instance.id}/cancel`)).ok().state).toBe("CANCELED")
    const jobs = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items
    expect(jobs.map((j: { state: string }) => j.state)).toEqual(["CANCELED"])
    ;(await owner.post(`/process-instances/${instance.id}/cancel`)).fails(409, "CONFLICT")
    ;(await owner.delete(`/process-instances/${instance.id}`)).ok()
    ;(await owner.get(`/process-instances/${instance.id}/history`)).fails(404, "RESOURCE_NOT_FOUND")
  })

  it("lists newest first with filters", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const a = await owner.start(deployment.id)
    const b = await owner.start(deployment.id)
    await owner.post(`/process-instances/${a.id}/cancel`)
    expect((await owner.get("/process-instances")).ok().items.map((i: { id: string }) => i.id)).toEqual([b.id, a.id])
    expect((await owner.get("/process-instances?state=CANCELED")).ok().items.map((i: { id: string }) => i.id)).toEqual([
      a.id
    ])
    expect((await owner.get("/process-instances?processKey=charge-order&state=ACTIVE")).ok().totalItems).toBe(1)
    ;(await owner.get("/process-instances?state=RUNNING")).fails(400, "VALIDATION_ERROR")
  })

  it("hides instances, jobs and tasks of other tenants, and needs PROCESS_OWNER to operate", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id)
    const stranger = await (await givenTenant()).admin()
    ;(await stranger.get(`/process-instances/${instance.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await stranger.post(`/process-instances/${instance.id}/cancel`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await stranger.post("/process-instances", { deploymentId: deployment.id })).fails(404, "RESOURCE_NOT_FOUND")
    expect(await stranger.activateJobs("charge-card")).toEqual([])
    const taskUser = await tenant.taskUser()
    ;(await taskUser.post(`/process-instances/${instance.id}/cancel`)).fails(403, "FORBIDDEN")
    ;(await taskUser.get(`/process-instances/${instance.id}`)).ok()
  })
})

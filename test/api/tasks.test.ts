// Working on human tasks through HTTP: claim, unclaim, assign, delegate (and its return to the owner), comments and
// saved task filters.
import { describe, expect, it } from "vitest"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const review = {
  id: "review-flow",
  nodes: [{ id: "s", type: "startEvent" }, {
    id: "review",
    type: "userTask",
    name: "Review",
    properties: { candidateGroups: ["reviewers"] }
  }, { id: "e", type: "endEvent" }],
  flows: [{ id: "f1", source: "s", target: "review" }, { id: "f2", source: "review", target: "e" }]
}

const openTask = async (owner: Caller) => {
  const deployment = await owner.deploy(review)
  const instance = await owner.start(deployment.id)
  const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
  return { instance, task }
}

describe("human tasks", () => {
  it("claim, conflicting claim, unclaim, assign; only the assignee completes", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const alice = await tenant.taskUser("alice")
    const bob = await tenant.taskUser("bob")
    const { instance, task } = await openTask(owner)
    expect((await alice.post(`/tasks/${task.id}/claim`)).ok()).toMatchObject({
      assignee: "alice",
      owner: null,
      delegationState: null
    })
    expect((await alice.post(`/tasks/${task.id}/claim`)).ok().assignee).toBe("alice")
    expect((await bob.post(`/tasks/${task.id}/claim`)).fails(409, "CONFLICT").message).toContain(
      "already claimed by alice"
    )
    ;(await bob.post(`/tasks/${task.id}/unclaim`)).fails(422, "BUSINESS_ERROR")
    expect((await alice.post(`/tasks/${task.id}/unclaim`)).ok().assignee).toBeNull()
    ;(await bob.post(`/tasks/${task.id}/assign`, { assignee: "carol" })).fails(403, "FORBIDDEN")
    expect((await owner.post(`/tasks/${task.id}/assign`, { assignee: "bob" })).ok().assignee).toBe("bob")
    ;(await alice.post(`/tasks/${task.id}/complete`, { variables: {} })).fails(422, "BUSINESS_ERROR")
    ;(await bob.post(`/tasks/${task.id}/complete`, { variables: { ok: true } })).ok()
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    ;(await bob.post(`/tasks/${task.id}/claim`)).fails(409, "CONFLICT")
    ;(await owner.post(`/tasks/${task.id}/assign`, {})).fails(400, "VALIDATION_ERROR")
  })

  it("delegation: the delegate's completion returns the task to its owner, who completes it", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const alice = await tenant.taskUser("alice")
    const dan = await tenant.taskUser("dan")
    const { instance, task } = await openTask(owner)
    ;(await alice.post(`/tasks/${task.id}/delegate`, { userId: "dan" })).fails(422, "BUSINESS_ERROR")
    await alice.post(`/tasks/${task.id}/claim`)
    expect((await alice.post(`/tasks/${task.id}/delegate`, { userId: "dan" })).ok()).toMatchObject({
      assignee: "dan",
      owner: "alice",
      delegationState: "PENDING"
    })
    const resolved = (await dan.post(`/tasks/${task.id}/complete`, { variables: { advice: "approve" } })).ok()
    expect(resolved).toMatchObject({ state: "CREATED", assignee: "alice", owner: "alice", delegationState: "RESOLVED" })
    expect((await owner.instance(instance.id)).variables).toMatchObject({ advice: "approve" })
    ;(await alice.post(`/tasks/${task.id}/complete`, { variables: {} })).ok()
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("comments in order with their authors; another tenant's task is 404", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const alice = await tenant.taskUser("alice")
    const { task } = await openTask(owner)
    ;(await alice.post(`/tasks/${task.id}/comments`, { message: "looking at it" })).ok(201)
    ;(await owner.post(`/tasks/${task.id}/comments`, { message: "thanks" })).ok(201)
    const comments = (await alice.get(`/tasks/${task.id}/comments`)).ok()
    expect(comments.map((c: { author: string; message: string }) => [c.author, c.message])).toEqual([[
      "alice",
      "looking at it"
    ], [expect.any(String), "thanks"]])
    ;(await alice.post(`/tasks/${task.id}/comments`, { message: "" })).fails(400, "VALIDATION_ERROR")
    const stranger = await (await givenTenant()).owner()
    ;(await stranger.get(`/tasks/${task.id}/comments`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await stranger.post(`/tasks/${task.id}/claim`)).fails(404, "RESOURCE_NOT_FOUND")
  })

  it("task filters: own and shared ones are listed; only the owner deletes", async () => {
    const tenant = await givenTenant()
    const alice = await tenant.taskUser("alice")
    const bob = await tenant.taskUser("bob")
    const mine =
      (await alice.post("/task-filters", { name: "My open reviews", query: { assignee: "alice", state: "CREATED" } }))
        .ok(201)
    const team =
      (await alice.post("/task-filters", { name: "Team queue", query: { candidateGroup: "reviewers" }, shared: true }))
        .ok(201)
    expect((await alice.get("/task-filters")).ok().map((f: { name: string }) => f.name)).toEqual([
      "My open reviews",
      "Team queue"
    ])
    expect((await bob.get("/task-filters")).ok().map((f: { id: string }) => f.id)).toEqual([team.id])
    ;(await bob.delete(`/task-filters/${mine.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await bob.delete(`/task-filters/${team.id}`)).fails(422, "BUSINESS_ERROR")
    expect((await alice.delete(`/task-filters/${team.id}`)).ok().id).toBe(team.id)
    ;(await alice.post("/task-filters", { name: "bad", query: { state: "DONE" } })).fails(400, "VALIDATION_ERROR")
  })
})

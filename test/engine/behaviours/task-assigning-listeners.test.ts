// Unit tests of the pure core: user task assigning listeners (Camunda 8.8's zeebe:taskListener eventType="assigning",
// the 8.7 name "assignment" too): an assignment waits for them, in order; they may correct the assignee or deny it;
// a task canceled while they run is canceled with them. An unknown eventType is refused at deploy.
import { describe, expect, it } from "vitest"
import { expectOk as ok, scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"
import { reviewModel, taskListeners } from "../../support/ReviewModels.ts"

const model = (listeners: string) => reviewModel({ extensions: taskListeners(listeners) })
const TWO = `<zeebe:taskListener eventType="assigning" type="audit" />
  <zeebe:taskListener eventType="assignment" type="route" />`

type Scenario = ReturnType<typeof scenario>
const taskId = (s: Scenario) => (s.events.find((e) => e.type === "UserTaskCreated") as { taskId: string }).taskId
const listenerJob = (s: Scenario, type: string) => {
  const created = s.events.filter((e) => e.type === "JobCreated" && e.jobType === type).at(-1)
  expect(created, `a ${type} job`).toBeDefined()
  return created as Extract<Scenario["events"][number], { type: "JobCreated" }>
}
const completeListener = (s: Scenario, type: string, result?: Record<string, unknown>) =>
  s.run({
    type: "CompleteJob",
    jobId: listenerJob(s, type).jobId,
    variables: {},
    ...(result === undefined ? {} : { result })
  } as never)

describe("assigning listeners", () => {
  it("run in order before the assignment takes effect; a correction changes the assignee", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    const task = taskId(s)
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({ assigningListeners: true })
    ok(s.run({ type: "AssignUserTask", taskId: task, assignee: "erin" }))
    expect(listenerJob(s, "audit").headers).toEqual({
      "io.camunda.zeebe:userTaskKey": task,
      "io.camunda.zeebe:assignee": "erin"
    })
    expect(s.events.some((e) => e.type === "UserTaskAssigned")).toBe(false)
    // the task cannot be completed (nor assigned again) while they run
    expect(s.run({ type: "CompleteUserTask", taskId: task, variables: {} })).toMatchObject({ ok: false })
    expect(s.run({ type: "AssignUserTask", taskId: task, assignee: "x" })).toMatchObject({ ok: false })
    ok(completeListener(s, "audit"))
    expect(listenerJob(s, "route").headers["io.camunda.zeebe:assignee"]).toBe("erin")
    ok(completeListener(s, "route", { type: "userTask", corrections: { assignee: "frank" } }))
    expect(s.events.filter((e) => e.type === "UserTaskAssigned")).toEqual([
      { type: "UserTaskAssigned", tokenId: expect.any(String), nodeId: "review", taskId: task, assignee: "frank" }
    ])
    ok(s.run({ type: "CompleteUserTask", taskId: task, variables: {} }))
    expect(s.state.status).toBe("COMPLETED")
  })

  it("a denial keeps the assignee the task had; a new assignment is a new attempt", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    const task = taskId(s)
    ok(s.run({ type: "AssignUserTask", taskId: task, assignee: "erin" }))
    ok(completeListener(s, "audit", { type: "userTask", denied: true, deniedReason: "erin is on leave" }))
    expect(s.events.filter((e) => e.type === "UserTaskAssignmentDenied")).toEqual([
      expect.objectContaining({ taskId: task, reason: "erin is on leave" })
    ])
    expect(s.events.some((e) => e.type === "UserTaskAssigned")).toBe(false)
    expect(s.events.some((e) => e.type === "JobCreated" && e.jobType === "route")).toBe(false)
    // unassigning is an assignment too (the header is empty)
    ok(s.run({ type: "AssignUserTask", taskId: task, assignee: null }))
    expect(listenerJob(s, "audit").headers["io.camunda.zeebe:assignee"]).toBe("")
  })

  it("refuses corrections other than the assignee (400 naming result.corrections)", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    ok(s.run({ type: "AssignUserTask", taskId: taskId(s), assignee: "erin" }))
    expect(completeListener(s, "audit", { type: "userTask", corrections: { priority: 90 } })).toMatchObject({
      ok: false,
      field: "result.corrections"
    })
  })

  it("without assigning listeners the assignment is recorded at once", async () => {
    const s = scenario(await graphOf(model(`<zeebe:taskListener eventType="completing" type="check" />`)))
    s.start()
    const task = taskId(s)
    expect(s.events.find((e) => e.type === "UserTaskCreated")).not.toHaveProperty("assigningListeners")
    ok(s.run({ type: "AssignUserTask", taskId: task, assignee: "erin" }))
    expect(s.events.at(-1)).toMatchObject({ type: "UserTaskAssigned", assignee: "erin" })
  })

  it("a task canceled while its listeners run is canceled with their job", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    const task = taskId(s)
    ok(s.run({ type: "AssignUserTask", taskId: task, assignee: "erin" }))
    ok(s.run({ type: "CancelInstance" }))
    expect(s.events.filter((e) => e.type === "UserTaskCanceled" || e.type === "JobCanceled").map((e) => e.type))
      .toEqual(["JobCanceled", "UserTaskCanceled"])
  })

  it("listeners of an event Camunda does not have are refused at deploy, by name", async () => {
    for (const eventType of ["escalating"]) {
      const compiled = await compile(model(`<zeebe:taskListener eventType="${eventType}" type="x" />`))
      expect(JSON.stringify(!compiled.ok && compiled.problems)).toContain(`of eventType \\"${eventType}\\"`)
    }
  })
})

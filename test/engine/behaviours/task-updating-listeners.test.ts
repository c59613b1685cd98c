// Unit tests of the pure core: user task updates and updating listeners (Camunda 8.8's zeebe:taskListener
// eventType="updating"): an update of candidates, dates or priority waits for them, in order; they may correct the
// changes or deny them. Without listeners an update is recorded at once; bad dates or priorities are refused.
import { describe, expect, it } from "vitest"
import { expectOk as ok, scenario } from "../../support/EngineScenario.ts"
import { graphOfXml as graphOf } from "../../support/Graphs.ts"
import { reviewModel, taskListeners } from "../../support/ReviewModels.ts"

const model = (listeners: string) => reviewModel({ extensions: taskListeners(listeners) })
const TWO = `<zeebe:taskListener eventType="updating" type="audit" />
  <zeebe:taskListener eventType="updating" type="policy" />`

type Scenario = ReturnType<typeof scenario>
const taskId = (s: Scenario) => (s.events.find((e) => e.type === "UserTaskCreated") as { taskId: string }).taskId
const listenerJob = (s: Scenario, type: string) =>
  s.events.filter((e) => e.type === "JobCreated" && e.jobType === type).at(-1) as Extract<
    Scenario["events"][number],
    { type: "JobCreated" }
  >
const completeListener = (s: Scenario, type: string, result?: Record<string, unknown>) =>
  s.run({
    type: "CompleteJob",
    jobId: listenerJob(s, type).jobId,
    variables: {},
    ...(result === undefined ? {} : { result })
  } as never)

describe("updating listeners", () => {
  it("run in order before the update takes effect; corrections change it", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    const task = taskId(s)
    ok(s.run({
      type: "UpdateUserTask",
      taskId: task,
      changes: { priority: 80, dueDate: "2026-12-01T10:00:00+02:00" }
    }))
    expect(listenerJob(s, "audit").headers).toEqual({
      "io.camunda.zeebe:userTaskKey": task,
      "io.camunda.zeebe:changedAttributes": JSON.stringify(["priority", "dueDate"]),
      "io.camunda.zeebe:priority": "80",
      "io.camunda.zeebe:dueDate": "2026-12-01T08:00:00.000Z"
    })
    expect(s.run({ type: "CompleteUserTask", taskId: task, variables: {} })).toMatchObject({ ok: false })
    ok(completeListener(s, "audit"))
    ok(completeListener(s, "policy", { type: "userTask", corrections: { priority: 60, candidateGroups: ["leads"] } }))
    expect(s.events.filter((e) => e.type === "UserTaskUpdated")).toEqual([expect.objectContaining({
      taskId: task,
      changes: { priority: 60, dueDate: "2026-12-01T08:00:00.000Z", candidateGroups: ["leads"] }
    })])
  })

  it("a denial leaves the task as it was; an assignee correction is refused", async () => {
    const s = scenario(await graphOf(model(TWO)))
    s.start()
    const task = taskId(s)
    ok(s.run({ type: "UpdateUserTask", taskId: task, changes: { priority: 10 } }))
    expect(completeListener(s, "audit", { type: "userTask", corrections: { assignee: "x" } })).toMatchObject({
      ok: false,
      field: "result.corrections"
    })
    ok(completeListener(s, "audit", { type: "userTask", denied: true, deniedReason: "frozen" }))
    expect(s.events.filter((e) => e.type === "UserTaskUpdateDenied")).toEqual([
      expect.objectContaining({ taskId: task, reason: "frozen" })
    ])
    expect(s.events.some((e) => e.type === "UserTaskUpdated")).toBe(false)
    ok(s.run({ type: "CompleteUserTask", taskId: task, variables: {} }))
    expect(s.state.status).toBe("COMPLETED")
  })

  it("without listeners records the update at once; refuses dates without offset and priorities over 100", async () => {
    const s = scenario(await graphOf(model(`<zeebe:taskListener eventType="completing" type="check" />`)))
    s.start()
    const task = taskId(s)
    expect(s.run({ type: "UpdateUserTask", taskId: task, changes: { dueDate: "2026-12-01" } })).toMatchObject({
      ok: false,
      field: "changes"
    })
    expect(s.run({ type: "UpdateUserTask", taskId: task, changes: { priority: 101 } })).toMatchObject({ ok: false })
    ok(s.run({ type: "UpdateUserTask", taskId: task, changes: { followUpDate: null, candidateUsers: ["ann"] } }))
    expect(s.events.at(-1)).toMatchObject({
      type: "UserTaskUpdated",
      changes: { followUpDate: null, candidateUsers: ["ann"] }
    })
  })
})

// Unit tests of the pure core: other elements and instance commands.
import { describe, expect, it } from "vitest"
import { scenario, serviceTask } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("other elements and instance commands", () => {
  it("script task sets its result variable", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, {
        id: "calc",
        type: "scriptTask",
        properties: { expression: "= a + b", resultVariable: "sum" }
      }, { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "calc" }, { id: "f2", source: "calc", target: "end" }]
    }))
    s.start({ a: 2, b: 3 })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { a: 2, b: 3, sum: 5 } })
  })

  it("terminate end event cancels the other paths and completes the instance", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "fork", type: "parallelGateway" },
        serviceTask("slow", "slow"),
        { id: "stop", type: "endEvent", properties: { terminate: true } },
        { id: "end", type: "endEvent" }
      ],
      flows: [
        { id: "f0", source: "start", target: "fork" },
        { id: "f1", source: "fork", target: "slow" },
        { id: "f2", source: "fork", target: "stop" },
        { id: "f3", source: "slow", target: "end" }
      ]
    }))
    s.start()
    expect(s.state.status).toBe("COMPLETED")
    expect(s.events.map((e) => e.type)).toContain("JobCanceled")
  })

  it("holds completions while suspended and applies them in order on resume", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, serviceTask("a", "a"), { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "a" }, { id: "f2", source: "a", target: "end" }]
    }))
    s.start()
    const [job] = s.waiting("job")
    s.run({ type: "SuspendInstance" })
    s.run({ type: "CompleteJob", jobId: job!.id, variables: { x: 1 } })
    expect(s.state).toMatchObject({ status: "SUSPENDED", deferred: [{ type: "CompleteJob" }] })
    expect(s.run({ type: "SuspendInstance" })).toMatchObject({ ok: false, reason: "INVALID_STATE" })
    s.run({ type: "ResumeInstance" })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { x: 1 }, deferred: [] })
  })

  it("cancel withdraws jobs and tasks; a finished instance rejects commands", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, {
        id: "t",
        type: "userTask",
        properties: { candidateGroups: "a, b" }
      }, { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "t" }, { id: "f2", source: "t", target: "end" }]
    }))
    s.start()
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({ candidateGroups: ["a", "b"] })
    s.run({ type: "CancelInstance" })
    expect(s.state.status).toBe("CANCELED")
    expect(s.events.map((e) => e.type)).toContain("UserTaskCanceled")
    expect(s.run({ type: "CancelInstance" })).toMatchObject({ ok: false, reason: "INVALID_STATE" })
  })
})

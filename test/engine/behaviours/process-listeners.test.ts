// Unit tests of the pure core: execution listeners on the process itself (zeebe:executionListeners on bpmn:process,
// Camunda 8.6+). Start listeners run in order before the start event is entered, end listeners after the last element
// ended and before the instance completes; each is a job of the process (its element id is the process id).
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../../src/bpmn/CompileGraph.ts"
import { execute } from "../../../src/engine/Execute.ts"
import { definitions } from "../../support/BpmnXml.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"

const listeners = (...list: Array<[string, string]>) =>
  `<zeebe:executionListeners>${
    list.map(([eventType, type]) => `<zeebe:executionListener eventType="${eventType}" type="${type}" />`).join("")
  }</zeebe:executionListeners>`

const model = (processListeners: string, body?: string) =>
  definitions(`<bpmn:message id="m" name="go" />
  <bpmn:process id="listened" isExecutable="true">
    <bpmn:extensionElements>${processListeners}</bpmn:extensionElements>
    ${
    body ?? `<bpmn:startEvent id="start" />
    <bpmn:startEvent id="byMessage"><bpmn:messageEventDefinition messageRef="m" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="f0" sourceRef="byMessage" targetRef="work" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:serviceTask id="work"><bpmn:extensionElements><zeebe:taskDefinition type="work" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" />
    <bpmn:endEvent id="end" />`
  }
  </bpmn:process>`)

type Scenario = ReturnType<typeof scenario>
const jobs = (s: Scenario) => s.events.flatMap((e) => (e.type === "JobCreated" ? [`${e.nodeId}:${e.jobType}`] : []))
const jobIdOf = (s: Scenario, jobType: string) => {
  const created = [...s.events].reverse().find((e) => e.type === "JobCreated" && e.jobType === jobType)
  expect(created, `a ${jobType} job`).toBeDefined()
  return (created as { jobId: string }).jobId
}
const complete = (s: Scenario, jobType: string, variables: Record<string, unknown> = {}) => {
  const result = s.run({ type: "CompleteJob", jobId: jobIdOf(s, jobType), variables })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}
const entered = (s: Scenario) => s.events.flatMap((e) => (e.type === "ElementActivated" ? [e.nodeId] : []))

const startAndEnd = model(listeners(["start", "open"], ["start", "enrich"], ["end", "close"], ["end", "archive"]))

describe("execution listeners on the process", () => {
  it("compile into the graph, and refuse what they cannot be, naming the process", async () => {
    const graph = await graphOf(startAndEnd)
    expect(graph.listeners).toEqual({
      start: [{ type: "open", retries: 3 }, { type: "enrich", retries: 3 }],
      end: [{ type: "close", retries: 3 }, { type: "archive", retries: 3 }]
    })
    expect((await graphOf(model(""))).listeners).toBeUndefined()
    const bad = await compile(model(`<zeebe:executionListeners>
      <zeebe:executionListener eventType="cancel" type="x" /><zeebe:executionListener eventType="start" />
    </zeebe:executionListeners>`))
    expect(bad.ok).toBe(false)
    expect(bad.ok ? [] : bad.problems).toEqual([
      { elementId: "listened", message: expect.stringContaining(`eventType must be "start" or "end", not "cancel"`) },
      { elementId: "listened", message: "an execution listener needs a job type (type)" }
    ])
  })

  it("run start listeners in order before the start event, end listeners before the instance completes", async () => {
    const s = scenario(await graphOf(startAndEnd))
    s.start({ amount: 5 })
    expect(jobs(s)).toEqual(["listened:open"])
    expect(entered(s)).toEqual(["listened"])
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ amount: 5 })
    complete(s, "open", { opened: true })
    expect(jobs(s)).toEqual(["listened:open", "listened:enrich"])
    expect(entered(s)).toEqual(["listened"])
    complete(s, "enrich", { amount: 7 })
    expect(entered(s)).toEqual(["listened", "start", "work"])
    expect(s.state.variables).toEqual({ amount: 7, opened: true })
    complete(s, "work", { done: true })
    expect(jobs(s).slice(-1)).toEqual(["listened:close"])
    expect(s.state.status).toBe("ACTIVE")
    expect(s.events.some((e) => e.type === "ElementCompleted" && e.nodeId === "end")).toBe(true)
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ amount: 7, opened: true, done: true })
    complete(s, "close", { closed: 1 })
    expect(s.state.status).toBe("ACTIVE")
    complete(s, "archive")
    expect(s.state.status).toBe("COMPLETED")
    expect(s.state.variables).toEqual({ amount: 7, opened: true, done: true, closed: 1 })
    expect(Object.keys(s.state.tokens)).toEqual([])
  })

  it("run for an instance started at a message start event too", async () => {
    const s = scenario(await graphOf(startAndEnd))
    s.run({ type: "StartInstance", variables: {}, startNodeId: "byMessage" })
    expect(jobs(s)).toEqual(["listened:open"])
    complete(s, "open")
    complete(s, "enrich")
    expect(entered(s)).toEqual(["listened", "byMessage", "work"])
  })

  it("fail like jobs: no retries left is an incident on the process, retrying runs the listener again", async () => {
    const s = scenario(await graphOf(startAndEnd))
    s.start()
    const open = jobIdOf(s, "open")
    s.run({ type: "FailJob", jobId: open, retries: 0, errorMessage: "listener down", retryAt: null })
    const [incident] = Object.values(s.state.incidents)
    expect(incident).toMatchObject({ nodeId: "listened", jobId: open })
    const skipped = s.run({ type: "ResolveIncident", incidentId: incident!.id, action: "skip" })
    expect(skipped).toMatchObject({ ok: false, reason: "INVALID_ARGUMENT" })
    expect(s.run({ type: "ResolveIncident", incidentId: incident!.id, action: "retry" }).ok).toBe(true)
    expect(Object.keys(s.state.incidents)).toEqual([])
    complete(s, "open")
    expect(jobs(s)).toEqual(["listened:open", "listened:enrich"])
    const thrown = s.run({
      type: "ThrowError",
      jobId: jobIdOf(s, "enrich"),
      errorCode: "E",
      errorMessage: "",
      variables: {}
    })
    expect(thrown).toMatchObject({ ok: false, reason: "INVALID_STATE" })
  })

  it("wait while the instance is suspended: a listener's completion is applied on resume", async () => {
    const s = scenario(await graphOf(startAndEnd))
    s.start()
    s.run({ type: "SuspendInstance" })
    complete(s, "open")
    expect(jobs(s)).toEqual(["listened:open"])
    s.run({ type: "ResumeInstance" })
    expect(jobs(s)).toEqual(["listened:open", "listened:enrich"])
  })

  it("canceling the instance withdraws a running listener and runs no end listeners", async () => {
    const s = scenario(await graphOf(startAndEnd))
    s.start()
    complete(s, "open")
    complete(s, "enrich")
    expect(s.run({ type: "CancelInstance" }).ok).toBe(true)
    expect(s.state.status).toBe("CANCELED")
    expect(jobs(s)).toEqual(["listened:open", "listened:enrich", "work:work"])
    const during = scenario(await graphOf(startAndEnd))
    during.start()
    during.run({ type: "CancelInstance" })
    expect(during.events.filter((e) => e.type === "JobCanceled")).toMatchObject([{ nodeId: "listened" }])
    expect(during.state.status).toBe("CANCELED")
  })

  it("run end listeners after a terminate end event too; an element may not share the process's id", async () => {
    const graph = await graphOf(model(
      listeners(["end", "close"]),
      `<bpmn:startEvent id="start" />
      <bpmn:parallelGateway id="fork" />
      <bpmn:serviceTask id="work"><bpmn:extensionElements><zeebe:taskDefinition type="work" /></bpmn:extensionElements>
      </bpmn:serviceTask>
      <bpmn:endEvent id="stop"><bpmn:terminateEventDefinition /></bpmn:endEvent>
      <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
      <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="work" />
      <bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="stop" />
      <bpmn:endEvent id="end" />
      <bpmn:sequenceFlow id="f4" sourceRef="work" targetRef="end" />`
    ))
    const s = scenario(graph)
    s.start()
    expect(s.events.some((e) => e.type === "JobCanceled")).toBe(true)
    expect(jobs(s)).toEqual(["work:work", "listened:close"])
    expect(s.state.status).toBe("ACTIVE")
    complete(s, "close")
    expect(s.state.status).toBe("COMPLETED")
    const clash = compileDraft({
      key: "listened",
      name: null,
      nodes: [{ id: "listened", type: "startEvent", name: null }],
      flows: [],
      listeners: [{ eventType: "end", type: "close", retries: null }]
    })
    expect(clash.ok ? [] : clash.problems).toContainEqual({
      elementId: "listened",
      message: "the process and one of its elements share the id listened"
    })
  })

  it("with end listeners only, the start event is entered at once", async () => {
    const graph = await graphOf(model(listeners(["end", "close"])))
    const s = scenario(graph)
    s.start()
    expect(entered(s)).toEqual(["start", "work"])
    complete(s, "work")
    expect(jobs(s)).toEqual(["work:work", "listened:close"])
    complete(s, "close")
    expect(s.state.status).toBe("COMPLETED")
    expect(execute(graph, "i", undefined, { type: "StartInstance", variables: {} }).ok).toBe(true)
  })
})

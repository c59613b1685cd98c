// Unit tests of the pure core: execution listeners (zeebe:executionListeners), read from BPMN XML. Start listeners
// run in order before the element, end listeners after it and before it leaves; each is a job the token waits for.
import { describe, expect, it } from "vitest"
import { definitions } from "../../support/BpmnXml.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"

const listeners = (...list: Array<[string, string]>) =>
  `<zeebe:executionListeners>${
    list.map(([eventType, type]) => `<zeebe:executionListener eventType="${eventType}" type="${type}" />`).join("")
  }</zeebe:executionListeners>`

const model = (body: string) => definitions(`<bpmn:process id="listened" isExecutable="true">${body}</bpmn:process>`)

type Scenario = ReturnType<typeof scenario>
const jobs = (s: Scenario) => s.events.flatMap((e) => (e.type === "JobCreated" ? [`${e.nodeId}:${e.jobType}`] : []))
const complete = (s: Scenario, jobType: string, variables: Record<string, unknown> = {}) => {
  const created = [...s.events].reverse().find((e) => e.type === "JobCreated" && e.jobType === jobType)
  expect(created, `a ${jobType} job`).toBeDefined()
  const result = s.run({ type: "CompleteJob", jobId: (created as { jobId: string }).jobId, variables })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}

const serviceTaskModel = model(`
  <bpmn:startEvent id="start" />
  <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
  <bpmn:serviceTask id="work">
    <bpmn:extensionElements><zeebe:taskDefinition type="work" />
      <zeebe:ioMapping><zeebe:input source="=amount * 2" target="doubled" /></zeebe:ioMapping>
      ${listeners(["start", "check"], ["start", "enrich"], ["end", "audit"])}
    </bpmn:extensionElements>
  </bpmn:serviceTask>
  <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="gate" />
  <bpmn:exclusiveGateway id="gate" default="f4">
    <bpmn:extensionElements>${listeners(["end", "gate-audit"])}</bpmn:extensionElements>
  </bpmn:exclusiveGateway>
  <bpmn:sequenceFlow id="f3" sourceRef="gate" targetRef="big"><bpmn:conditionExpression>=amount &gt; 100</bpmn:conditionExpression></bpmn:sequenceFlow>
  <bpmn:sequenceFlow id="f4" sourceRef="gate" targetRef="end" />
  <bpmn:endEvent id="big" />
  <bpmn:endEvent id="end"><bpmn:extensionElements>${
  listeners(["end", "end-audit"])
}</bpmn:extensionElements></bpmn:endEvent>`)

describe("execution listeners", () => {
  it("run start listeners in order before the element, then its end listeners before it leaves", async () => {
    const s = scenario(await graphOf(serviceTaskModel))
    s.start({ amount: 5 })
    expect(jobs(s)).toEqual(["work:check"])
    // a start listener sees the input mappings' results, and its variables are there for the element
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ amount: 5, doubled: 10 })
    complete(s, "check", { checked: true })
    expect(jobs(s)).toEqual(["work:check", "work:enrich"])
    complete(s, "enrich", { amount: 500 })
    expect(jobs(s)).toEqual(["work:check", "work:enrich", "work:work"])
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ checked: true, amount: 500, doubled: 1000 })
    complete(s, "work", { result: "ok" })
    expect(jobs(s).at(-1)).toBe("work:audit")
    // not left yet: no flow taken from work
    expect(s.events.some((e) => e.type === "FlowTaken" && e.flowId === "f2")).toBe(false)
    complete(s, "audit")
    // the gateway decided (amount is 500 now), then its end listener ran before it left
    expect(jobs(s).at(-1)).toBe("gate:gate-audit")
    expect(s.events.some((e) => e.type === "FlowTaken" && e.nodeId === "gate")).toBe(false)
    complete(s, "gate-audit", { amount: 1 })
    // the flow chosen before the listener is the one taken
    expect(s.events.some((e) => e.type === "FlowTaken" && e.flowId === "f3")).toBe(true)
    expect(s.state.status).toBe("COMPLETED")
  })

  it("run an end event's end listener before the instance completes", async () => {
    const s = scenario(await graphOf(serviceTaskModel))
    s.start({ amount: 5 })
    for (const type of ["check", "enrich", "work", "audit", "gate-audit"]) complete(s, type)
    expect(jobs(s).at(-1)).toBe("end:end-audit")
    expect(s.state.status).toBe("ACTIVE")
    complete(s, "end-audit")
    expect(s.state.status).toBe("COMPLETED")
  })

  it("fail like jobs: no retries left is an incident, and resolving it runs the listener again", async () => {
    const s = scenario(await graphOf(serviceTaskModel))
    s.start({ amount: 5 })
    const check = s.events.find((e) => e.type === "JobCreated") as { jobId: string }
    s.run({ type: "FailJob", jobId: check.jobId, retries: 0, errorMessage: "listener down", retryAt: null })
    const [incident] = Object.values(s.state.incidents)
    expect(incident).toMatchObject({ nodeId: "work", message: "listener down" })
    s.run({ type: "ResolveIncident", incidentId: incident!.id, action: "retry" } as never)
    // the same listener job is activatable again; completing it goes on to the next listener
    s.run({ type: "CompleteJob", jobId: check.jobId, variables: {} })
    expect(jobs(s).at(-1)).toBe("work:enrich")
  })

  it("are checked at deploy: event type, job type, no start listeners on start events, not on multi-instance", async () => {
    const bad = await compile(model(`
      <bpmn:startEvent id="start"><bpmn:extensionElements>${
      listeners(["start", "x"])
    }</bpmn:extensionElements></bpmn:startEvent>
      <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="t" />
      <bpmn:task id="t"><bpmn:extensionElements>${
      listeners(["middle", "y"], ["end", ""])
    }</bpmn:extensionElements></bpmn:task>
      <bpmn:sequenceFlow id="f2" sourceRef="t" targetRef="end" />
      <bpmn:endEvent id="end" />`))
    expect(bad.ok).toBe(false)
    const messages = JSON.stringify(!bad.ok && bad.problems)
    expect(messages).toMatch(/startEvent has no start execution listeners/)
    expect(messages).toMatch(/eventType must be \\"start\\" or \\"end\\", not \\"middle\\"/)
    expect(messages).toMatch(/needs a job type/)
  })
})

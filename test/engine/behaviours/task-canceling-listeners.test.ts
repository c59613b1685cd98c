// Unit tests of the pure core: user task canceling listeners (Camunda 8.8's zeebe:taskListener eventType="canceling").
// The task is canceled at once and the instance goes on; the listener jobs follow, held by a token in the nearest
// scope still running (which waits for them). When the instance itself is canceled, they do not run.
import { describe, expect, it } from "vitest"
import { definitions } from "../../support/BpmnXml.ts"
import { expectOk as ok, scenario } from "../../support/EngineScenario.ts"
import { graphOfXml as graphOf } from "../../support/Graphs.ts"

const userTask = `<bpmn:userTask id="review">
  <bpmn:extensionElements><zeebe:userTask /><zeebe:taskListeners>
    <zeebe:taskListener eventType="canceling" type="notify" />
    <zeebe:taskListener eventType="canceling" type="cleanup" />
  </zeebe:taskListeners></bpmn:extensionElements></bpmn:userTask>`
const timer = (attachedTo: string) =>
  `<bpmn:boundaryEvent id="late" attachedToRef="${attachedTo}"><bpmn:timerEventDefinition>
    <bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
  <bpmn:sequenceFlow id="f4" sourceRef="late" targetRef="escalate" />
  <bpmn:serviceTask id="escalate"><bpmn:extensionElements><zeebe:taskDefinition type="escalate" /></bpmn:extensionElements></bpmn:serviceTask>
  <bpmn:sequenceFlow id="f5" sourceRef="escalate" targetRef="end2" /><bpmn:endEvent id="end2" />`

const model = (body: string, extra = "") =>
  definitions(`<bpmn:process id="p" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    ${body}
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" />
    <bpmn:endEvent id="end" />
    ${extra}
  </bpmn:process>`)
const plain = model(userTask.replace(`id="review"`, `id="work"`), timer("work"))
const nested = model(
  `<bpmn:subProcess id="work"><bpmn:startEvent id="s-start" /><bpmn:sequenceFlow id="s1" sourceRef="s-start" targetRef="review" />
    ${userTask}<bpmn:sequenceFlow id="s2" sourceRef="review" targetRef="s-end" /><bpmn:endEvent id="s-end" /></bpmn:subProcess>`,
  timer("work")
)

type Scenario = ReturnType<typeof scenario>
const fireTimer = (s: Scenario) => {
  const armed = Object.values(s.state.boundaries ?? {}).find((b) => b.nodeId === "late")!
  ok(s.run({ type: "FireTimer", subscriptionId: armed.subscriptionId }))
}
const job = (s: Scenario, type: string) =>
  s.events.find((e) => e.type === "JobCreated" && e.jobType === type) as
    | Extract<Scenario["events"][number], { type: "JobCreated" }>
    | undefined
const complete = (s: Scenario, type: string, result?: Record<string, unknown>) =>
  s.run({ type: "CompleteJob", jobId: job(s, type)!.jobId, variables: {}, ...(result ? { result } : {}) } as never)

describe("canceling listeners", () => {
  it("follow a task an interrupting boundary event canceled; the instance goes on and waits for them", async () => {
    const s = scenario(await graphOf(plain))
    s.start()
    const taskId = (s.events.find((e) => e.type === "UserTaskCreated") as { taskId: string }).taskId
    fireTimer(s)
    expect(s.events.some((e) => e.type === "UserTaskCanceled")).toBe(true)
    expect(job(s, "escalate")).toBeDefined()
    expect(job(s, "notify")).toMatchObject({ nodeId: "work", headers: { "io.camunda.zeebe:userTaskKey": taskId } })
    expect(job(s, "cleanup")).toBeUndefined()
    ok(complete(s, "escalate"))
    // the boundary path ended, but the canceling listeners still run: the instance waits for them
    expect(s.state.status).toBe("ACTIVE")
    ok(complete(s, "notify"))
    ok(complete(s, "cleanup"))
    expect(s.state.status).toBe("COMPLETED")
  })

  it("run in the nearest scope still running when the task's subprocess was interrupted", async () => {
    const s = scenario(await graphOf(nested))
    s.start()
    fireTimer(s)
    const holder = Object.values(s.state.tokens).find((t) => t.nodeId === "review")!
    expect(holder.scopeId).toBe(s.state.instanceId)
    expect(Object.keys(s.state.scopes)).toEqual([])
    ok(complete(s, "notify"))
    ok(complete(s, "cleanup"))
    ok(complete(s, "escalate"))
    expect(s.state.status).toBe("COMPLETED")
  })

  it("do not run when the instance is canceled (its cancellation is not held up)", async () => {
    const s = scenario(await graphOf(plain))
    s.start()
    ok(s.run({ type: "CancelInstance" }))
    expect(s.state.status).toBe("CANCELED")
    expect(job(s, "notify")).toBeUndefined()
  })

  it("can neither deny nor correct (400 naming result)", async () => {
    const s = scenario(await graphOf(plain))
    s.start()
    fireTimer(s)
    expect(complete(s, "notify", { type: "userTask", denied: true })).toMatchObject({ ok: false, field: "result" })
  })
})

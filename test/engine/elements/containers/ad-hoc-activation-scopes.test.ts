// Unit tests of the pure core: each activation of an ad-hoc subprocess's element runs in a scope of its own (Camunda
// 8.8's inner instances): the worker's variables for it are that scope's locals, a variable it already has stays
// there, the output element is read in it, and an error boundary of the subprocess still catches for the subprocess.
import { describe, expect, it } from "vitest"
import { definitions } from "../../../support/BpmnXml.ts"
import { expectOk as ok, scenario } from "../../../support/EngineScenario.ts"
import { graphOfXml as graphOf } from "../../../support/Graphs.ts"

const model = (adHoc: string, extra = "") =>
  definitions(`<bpmn:process id="agent" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="tools" />
    <bpmn:adHocSubProcess id="tools">
      <bpmn:extensionElements>${adHoc}</bpmn:extensionElements>
      <bpmn:serviceTask id="weather"><bpmn:extensionElements><zeebe:taskDefinition type="weather" /></bpmn:extensionElements></bpmn:serviceTask>
      <bpmn:serviceTask id="fetch"><bpmn:extensionElements><zeebe:taskDefinition type="fetch" /></bpmn:extensionElements></bpmn:serviceTask>
      <bpmn:sequenceFlow id="i1" sourceRef="fetch" targetRef="parse" />
      <bpmn:serviceTask id="parse"><bpmn:extensionElements><zeebe:taskDefinition type="parse" /></bpmn:extensionElements></bpmn:serviceTask>
    </bpmn:adHocSubProcess>
    ${extra}
    <bpmn:sequenceFlow id="f2" sourceRef="tools" targetRef="after" />
    <bpmn:serviceTask id="after"><bpmn:extensionElements><zeebe:taskDefinition type="after" /></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:sequenceFlow id="f3" sourceRef="after" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:error id="failed" errorCode="FAILED" />`)

type Scenario = ReturnType<typeof scenario>
const jobsAt = (s: Scenario, node: string) => s.waiting("job").filter((j) => j.node === node)
const jobVariables = (s: Scenario, jobId: string) => s.jobVariables(jobId)!
const answer = (s: Scenario, result: Record<string, unknown>) =>
  ok(s.run({ type: "CompleteJob", jobId: jobsAt(s, "tools")[0]!.id, variables: {}, result } as never))
const activationScopes = (s: Scenario) => {
  const adHoc = Object.values(s.state.scopes).find((scope) => scope.parentId === s.state.instanceId)!
  return Object.values(s.state.scopes).filter((scope) => scope.parentId === adHoc.id)
}

const WORKER =
  `<zeebe:taskDefinition type="agent" /><zeebe:adHoc outputCollection="results" outputElement="={city: city, forecast: forecast}" />`

describe("ad-hoc activations in scopes of their own", () => {
  it("gives each activation its own scope with the worker's variables for it; the output element reads that scope", async () => {
    const s = scenario(await graphOf(model(WORKER)))
    s.start({ forecast: null })
    answer(s, {
      activateElements: [
        { elementId: "weather", variables: { city: "Lyon" } },
        { elementId: "weather", variables: { city: "Paris" } }
      ]
    })
    const scopes = activationScopes(s)
    expect(scopes.map((scope) => scope.variables)).toEqual([{ city: "Lyon" }, { city: "Paris" }])
    const [lyon, paris] = jobsAt(s, "weather")
    expect(jobVariables(s, lyon!.id)).toMatchObject({ city: "Lyon" })
    expect(jobVariables(s, paris!.id)).toMatchObject({ city: "Paris" })
    // city exists in the activation's scope: it stays there; forecast goes where it already is (the instance)
    ok(s.run({ type: "CompleteJob", jobId: paris!.id, variables: { city: "Paris, FR", forecast: "rain" } }))
    expect(activationScopes(s)).toHaveLength(1)
    expect(s.state.variables["city"]).toBeUndefined()
    answer(s, {})
    ok(s.run({ type: "CompleteJob", jobId: lyon!.id, variables: { forecast: "sun" } }))
    answer(s, { isCompletionConditionFulfilled: true })
    expect(jobsAt(s, "after")).toHaveLength(1)
    expect(s.state.variables["results"]).toEqual([
      { city: "Paris, FR", forecast: "rain" },
      { city: "Lyon", forecast: "sun" }
    ])
    expect(Object.keys(s.state.scopes)).toEqual([])
  })

  it("runs a chain inside the activation's scope and closes it when the chain ends", async () => {
    const s = scenario(await graphOf(model(`<zeebe:adHoc activeElementsCollection="=[&quot;fetch&quot;]" />`)))
    s.start()
    const [scope] = activationScopes(s)
    ok(s.run({ type: "CompleteJob", jobId: jobsAt(s, "fetch")[0]!.id, variables: {} }))
    const parse = Object.values(s.state.tokens).find((t) => t.nodeId === "parse")!
    expect(parse.scopeId).toBe(scope!.id)
    ok(s.run({ type: "CompleteJob", jobId: jobsAt(s, "parse")[0]!.id, variables: {} }))
    expect(jobsAt(s, "after")).toHaveLength(1)
    const closed = s.events.filter((e) => e.type === "ScopeClosed").map((e) => e.scopeId)
    expect(closed).toContain(scope!.id)
  })

  it("an error boundary event of the subprocess catches an error thrown inside an activation, for the subprocess", async () => {
    const boundary =
      `<bpmn:boundaryEvent id="caught" attachedToRef="tools"><bpmn:errorEventDefinition errorRef="failed" /></bpmn:boundaryEvent>
      <bpmn:sequenceFlow id="f4" sourceRef="caught" targetRef="recover" />
      <bpmn:serviceTask id="recover"><bpmn:extensionElements><zeebe:taskDefinition type="recover" /></bpmn:extensionElements></bpmn:serviceTask>
      <bpmn:sequenceFlow id="f5" sourceRef="recover" targetRef="end2" /><bpmn:endEvent id="end2" />`
    const s = scenario(
      await graphOf(
        model(`<zeebe:adHoc activeElementsCollection="=[&quot;weather&quot;, &quot;fetch&quot;]" />`, boundary)
      )
    )
    s.start()
    const weather = jobsAt(s, "weather")[0]!
    ok(s.run({ type: "ThrowError", jobId: weather.id, errorCode: "FAILED", errorMessage: "down", variables: {} }))
    expect(s.waiting("job").map((j) => j.node)).toEqual(["recover"])
    expect(Object.keys(s.state.scopes)).toEqual([])
    expect(Object.values(s.state.tokens).map((t) => t.nodeId)).toEqual(["recover"])
  })
})

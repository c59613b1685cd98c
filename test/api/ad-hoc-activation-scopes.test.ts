// Ad-hoc subprocesses over HTTP: each tool call the agent's worker asks for runs in a scope of its own (Camunda 8.8's
// inner instances) — its variables are its own, and the output element reads them there.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const agent = definitions(`<bpmn:process id="ad-hoc-scopes" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="tools" />
    <bpmn:adHocSubProcess id="tools">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="scoped-agent" />
        <zeebe:adHoc outputCollection="toolCallResults" outputElement="={id: toolCall.id, content: toolCallResult}" />
      </bpmn:extensionElements>
      <bpmn:serviceTask id="weather"><bpmn:extensionElements><zeebe:taskDefinition type="scoped-weather" />
        <zeebe:ioMapping><zeebe:output source="=forecast" target="toolCallResult" /></zeebe:ioMapping>
      </bpmn:extensionElements></bpmn:serviceTask>
    </bpmn:adHocSubProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="tools" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("ad-hoc activations in scopes of their own", () => {
  it("give each tool call its own variables, and collect each call's result from its own scope", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start((await owner.deploy(agent)).id, { question: "Weather in two cities?" })
    const [ask] = await owner.activateJobs("scoped-agent")
    ;(await owner.post(`/jobs/${ask.id}/complete`, {
      result: {
        type: "adHocSubProcess",
        activateElements: [
          { elementId: "weather", variables: { toolCall: { id: "c1", city: "Lyon" }, toolCallResult: null } },
          { elementId: "weather", variables: { toolCall: { id: "c2", city: "Oslo" }, toolCallResult: null } }
        ]
      }
    })).ok()
    const calls = await owner.activateJobs("scoped-weather", { maxJobsToActivate: 2 })
    expect(calls.map((job) => job.variables.toolCall.city).sort()).toEqual(["Lyon", "Oslo"])
    const byCity = (city: string) => calls.find((job) => job.variables.toolCall.city === city)
    // toolCallResult is a local of each call's scope: Oslo's result does not leak into Lyon's
    await owner.completeJob(byCity("Oslo").id, { forecast: "snow" })
    const running = await owner.instance(instance.id)
    expect(running.variables.toolCall).toBeUndefined()
    expect(running.variables.toolCallResult).toBeUndefined()
    const [again] = await owner.activateJobs("scoped-agent")
    expect(again.variables.toolCallResults).toEqual([{ id: "c2", content: "snow" }])
    ;(await owner.post(`/jobs/${again.id}/complete`, { result: { activateElements: [] } })).ok()
    await owner.completeJob(byCity("Lyon").id, { forecast: "sun" })
    const [last] = await owner.activateJobs("scoped-agent")
    ;(await owner.post(`/jobs/${last.id}/complete`, { result: { isCompletionConditionFulfilled: true } })).ok()
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables.toolCallResults).toEqual([{ id: "c2", content: "snow" }, { id: "c1", content: "sun" }])
  })
})

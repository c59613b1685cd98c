// Compensation over HTTP reaching into a completed embedded subprocess, and the budget of compensation records.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { compensated, xmlServiceTask } from "../support/CompensationModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const trip = definitions(`<bpmn:process id="trip-sub" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="booking" />
    <bpmn:subProcess id="booking">
      <bpmn:startEvent id="b-start" />
      <bpmn:sequenceFlow id="b1" sourceRef="b-start" targetRef="flight" />
      ${compensated("flight", "cancel")}
      <bpmn:sequenceFlow id="b2" sourceRef="flight" targetRef="hotel" />
      ${compensated("hotel", "cancel")}
      <bpmn:sequenceFlow id="b3" sourceRef="hotel" targetRef="b-end" />
      <bpmn:endEvent id="b-end" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="booking" targetRef="pay" />
    ${xmlServiceTask("pay")}
    <bpmn:sequenceFlow id="f3" sourceRef="pay" targetRef="paid" />
    <bpmn:exclusiveGateway id="paid" default="ok" />
    <bpmn:sequenceFlow id="ok" sourceRef="paid" targetRef="done" />
    <bpmn:sequenceFlow id="declined" sourceRef="paid" targetRef="undo">
      <bpmn:conditionExpression>=payment = "declined"</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:endEvent id="done" />
    <bpmn:endEvent id="undo"><bpmn:compensateEventDefinition activityRef="booking" /></bpmn:endEvent>
  </bpmn:process>`)

const script = (id: string, expression: string, result: string, extra = "") =>
  `<bpmn:scriptTask id="${id}" ${extra}><bpmn:extensionElements>
    <zeebe:script expression="${expression}" resultVariable="${result}" /></bpmn:extensionElements></bpmn:scriptTask>`

// A loop of 1,001 compensable steps (script tasks), then a compensation of all of them (script handlers too).
const loop = definitions(`<bpmn:process id="many-steps" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="step" />
    ${script("step", "=n + 1", "n")}
    <bpmn:boundaryEvent id="step-comp" attachedToRef="step"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
    ${script("unstep", "=n", "lastUndone", `isForCompensation="true"`)}
    <bpmn:association id="step-a" sourceRef="step-comp" targetRef="unstep" />
    <bpmn:sequenceFlow id="f2" sourceRef="step" targetRef="more" />
    <bpmn:exclusiveGateway id="more" default="enough" />
    <bpmn:sequenceFlow id="again" sourceRef="more" targetRef="step">
      <bpmn:conditionExpression>=n &lt; 1001</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="enough" sourceRef="more" targetRef="undo" />
    <bpmn:endEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:endEvent>
  </bpmn:process>`)

describe("compensation of a completed subprocess", () => {
  it("undoes what completed inside the subprocess, in reverse order, with the variables each step had", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start((await owner.deploy(trip)).id)
    await owner.completeJob((await owner.activateJobs("flight"))[0].id, { flightNo: "AF1" })
    await owner.completeJob((await owner.activateJobs("hotel"))[0].id, { room: 7 })
    await owner.completeJob((await owner.activateJobs("pay"))[0].id, { payment: "declined", room: 8 })
    expect(await owner.activateJobs("cancel-flight")).toEqual([])
    const [cancelHotel] = await owner.activateJobs("cancel-hotel")
    expect(cancelHotel.variables.room).toBe(7)
    await owner.completeJob(cancelHotel.id)
    const [cancelFlight] = await owner.activateJobs("cancel-flight")
    expect(cancelFlight.variables.flightNo).toBe("AF1")
    await owner.completeJob(cancelFlight.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})

describe("the budget of compensation records", () => {
  it(
    "keeps the latest 1,000: the oldest is dropped (CompensableDropped in the history) and not compensated",
    async () => {
      const owner = await (await givenTenant()).owner()
      const instance = await owner.start((await owner.deploy(loop)).id, { n: 0 })
      expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
      const { variables } = (await owner.get(`/process-instances/${instance.id}/variables`)).ok()
      // Handlers ran newest first; the last one undid step 2: step 1's record was dropped.
      expect(variables).toEqual({ n: 1001, lastUndone: 2 })
    },
    60_000
  )
})

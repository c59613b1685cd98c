// Compensation over HTTP: a trip booking undone in reverse order when the payment fails.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { compensated } from "../support/CompensationModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const trip = definitions(`<bpmn:process id="trip" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="flight" />
    ${compensated("flight", "cancel")}
    <bpmn:sequenceFlow id="f2" sourceRef="flight" targetRef="hotel" />
    ${compensated("hotel", "cancel")}
    <bpmn:sequenceFlow id="f3" sourceRef="hotel" targetRef="paid" />
    <bpmn:exclusiveGateway id="paid" default="ok" />
    <bpmn:sequenceFlow id="ok" sourceRef="paid" targetRef="done" />
    <bpmn:sequenceFlow id="declined" sourceRef="paid" targetRef="undo">
      <bpmn:conditionExpression>=payment = "declined"</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:endEvent id="done" />
    <bpmn:endEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:endEvent>
  </bpmn:process>`)

describe("compensation", () => {
  it("undoes what was booked, in reverse order, before the instance ends", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(trip)
    const instance = await owner.start(deployment.id)
    await owner.completeJob((await owner.activateJobs("flight"))[0].id, { flightNo: "AF1" })
    await owner.completeJob((await owner.activateJobs("hotel"))[0].id, { room: 7, payment: "declined" })
    expect(await owner.activateJobs("cancel-flight")).toEqual([])
    const [cancelHotel] = await owner.activateJobs("cancel-hotel")
    expect(cancelHotel.variables.room).toBe(7)
    const tokens = (await owner.get(`/process-instances/${instance.id}/tokens`)).ok()
    expect(JSON.stringify(tokens)).toContain("COMPENSATION")
    await owner.completeJob(cancelHotel.id)
    const [cancelFlight] = await owner.activateJobs("cancel-flight")
    expect(cancelFlight.variables.flightNo).toBe("AF1")
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    await owner.completeJob(cancelFlight.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})

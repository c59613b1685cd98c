// A compensation event subprocess over HTTP: compensating a completed embedded subprocess runs its compensation event
// subprocess instead of the handlers inside (with the subprocess's variables as it completed), and a compensation
// throw event inside it undoes the subprocess's activities in reverse order.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { compensated, xmlServiceTask } from "../support/CompensationModels.ts"
import { givenTenant } from "../support/Scenario.ts"

/** start -> booking (flight -> hotel; compensation event subprocess: refund [-> inner throw]) -> pay -> undo (end). */
const trip = (processId: string, innerThrow: boolean) =>
  definitions(`<bpmn:process id="${processId}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="booking" />
    <bpmn:subProcess id="booking">
      <bpmn:extensionElements><zeebe:ioMapping><zeebe:input source="=customer" target="bookedFor" />
      </zeebe:ioMapping></bpmn:extensionElements>
      <bpmn:startEvent id="b-start" />
      <bpmn:sequenceFlow id="b1" sourceRef="b-start" targetRef="flight" />
      ${compensated("flight", "cancel")}
      <bpmn:sequenceFlow id="b2" sourceRef="flight" targetRef="hotel" />
      ${compensated("hotel", "cancel")}
      <bpmn:sequenceFlow id="b3" sourceRef="hotel" targetRef="b-end" />
      <bpmn:endEvent id="b-end" />
      <bpmn:subProcess id="on-compensation" triggeredByEvent="true">
        <bpmn:startEvent id="c-start"><bpmn:compensateEventDefinition /></bpmn:startEvent>
        <bpmn:sequenceFlow id="c1" sourceRef="c-start" targetRef="refund" />
        ${xmlServiceTask("refund")}
        <bpmn:sequenceFlow id="c2" sourceRef="refund" targetRef="${innerThrow ? "undo-inside" : "c-end"}" />
        ${
    innerThrow
      ? `<bpmn:intermediateThrowEvent id="undo-inside"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>
        <bpmn:sequenceFlow id="c3" sourceRef="undo-inside" targetRef="c-end" />`
      : ""
  }
        <bpmn:endEvent id="c-end" />
      </bpmn:subProcess>
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="booking" targetRef="pay" />
    ${xmlServiceTask("pay")}
    <bpmn:sequenceFlow id="f3" sourceRef="pay" targetRef="undo" />
    <bpmn:endEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:endEvent>
  </bpmn:process>`)

type Owner = Awaited<ReturnType<Awaited<ReturnType<typeof givenTenant>>["owner"]>>
const book = async (owner: Owner, processId: string, innerThrow: boolean) => {
  const instance = await owner.start((await owner.deploy(trip(processId, innerThrow))).id, { customer: "Ada" })
  await owner.completeJob((await owner.activateJobs("flight"))[0].id, { flightNo: "AF1" })
  await owner.completeJob((await owner.activateJobs("hotel"))[0].id, { room: 7 })
  await owner.completeJob((await owner.activateJobs("pay"))[0].id, { room: 8 })
  return instance
}

describe("a compensation event subprocess", () => {
  it("runs instead of the handlers inside the subprocess, with the subprocess's variables", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await book(owner, "trip-esp", false)
    const [refund] = await owner.activateJobs("refund")
    expect(refund.processInstanceId).toBe(instance.id)
    // bookedFor was the subprocess's own variable: back for its compensation, over the process's current ones
    expect(refund.variables).toMatchObject({ bookedFor: "Ada", customer: "Ada", flightNo: "AF1", room: 8 })
    expect(JSON.stringify((await owner.get(`/process-instances/${instance.id}/tokens`)).ok())).toContain("COMPENSATION")
    await owner.completeJob(refund.id)
    expect(await owner.activateJobs("cancel-hotel")).toEqual([])
    expect(await owner.activateJobs("cancel-flight")).toEqual([])
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("with a compensation throw event inside, undoes the subprocess's activities in reverse order", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await book(owner, "trip-esp-inner", true)
    await owner.completeJob((await owner.activateJobs("refund"))[0].id)
    expect(await owner.activateJobs("cancel-flight")).toEqual([])
    const [cancelHotel] = await owner.activateJobs("cancel-hotel")
    expect(cancelHotel.variables).toMatchObject({ room: 7, bookedFor: "Ada" })
    await owner.completeJob(cancelHotel.id)
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    const [cancelFlight] = await owner.activateJobs("cancel-flight")
    expect(cancelFlight.variables).toMatchObject({ flightNo: "AF1" })
    await owner.completeJob(cancelFlight.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("is refused at the process level, by name", async () => {
    const owner = await (await givenTenant()).owner()
    const xml = trip("trip-esp-root", false)
      .replace(/<bpmn:subProcess id="on-compensation"[\s\S]*?<\/bpmn:subProcess>\n/, "")
      .replace(
        `<bpmn:endEvent id="undo">`,
        `<bpmn:subProcess id="root-compensation" triggeredByEvent="true">
          <bpmn:startEvent id="r-start"><bpmn:compensateEventDefinition /></bpmn:startEvent>
          <bpmn:sequenceFlow id="r1" sourceRef="r-start" targetRef="r-end" /><bpmn:endEvent id="r-end" />
        </bpmn:subProcess><bpmn:endEvent id="undo">`
      )
    const reply = (await owner.call("POST", "/deployments", { rawBody: xml, contentType: "application/xml" }))
      .fails(400, "VALIDATION_ERROR")
    expect(reply.errors).toContainEqual(expect.objectContaining({
      field: "root-compensation",
      message: expect.stringContaining("compensation event subprocess root-compensation is at the process level")
    }))
  })
})

// Execution listeners on the process itself over HTTP (Camunda 8.6+): start listeners run, as jobs of their types and
// in order, before the start event; end listeners after the last element, before the instance completes.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = (processId: string) =>
  definitions(`<bpmn:process id="${processId}" isExecutable="true">
    <bpmn:extensionElements>
      <zeebe:executionListeners>
        <zeebe:executionListener eventType="start" type="${processId}-open" retries="1" />
        <zeebe:executionListener eventType="start" type="${processId}-enrich" />
        <zeebe:executionListener eventType="end" type="${processId}-close" />
      </zeebe:executionListeners>
    </bpmn:extensionElements>
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" />
    <bpmn:serviceTask id="charge">
      <bpmn:extensionElements><zeebe:taskDefinition type="${processId}-charge" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("execution listeners on the process", () => {
  it("run start listeners in order before the start event, end listeners before the instance completes", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model("pl-order"))
    const instance = await owner.start(deployment.id, { amount: 40 })
    expect(await owner.activateJobs("pl-order-enrich")).toEqual([])
    expect(await owner.activateJobs("pl-order-charge")).toEqual([])
    const [open] = await owner.activateJobs("pl-order-open")
    expect(open).toMatchObject({ retries: 1, nodeId: "pl-order", variables: { amount: 40 } })
    await owner.completeJob(open.id, { opened: true })
    expect(await owner.activateJobs("pl-order-charge")).toEqual([])
    const [enrich] = await owner.activateJobs("pl-order-enrich")
    expect(enrich.variables).toMatchObject({ amount: 40, opened: true })
    await owner.completeJob(enrich.id, { customer: "c-1" })
    const [charge] = await owner.activateJobs("pl-order-charge")
    expect(charge.variables).toMatchObject({ amount: 40, opened: true, customer: "c-1" })
    await owner.completeJob(charge.id, { receipt: "R-1" })
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    const [close] = await owner.activateJobs("pl-order-close")
    expect(close.variables).toMatchObject({ receipt: "R-1", customer: "c-1" })
    await owner.completeJob(close.id, { archived: true })
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables).toMatchObject({ amount: 40, opened: true, customer: "c-1", receipt: "R-1", archived: true })
  })

  it("a listener failing with no retries left raises an incident on the process; retrying runs it again", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model("pl-failing"))
    const instance = await owner.start(deployment.id)
    const [open] = await owner.activateJobs("pl-failing-open")
    ;(await owner.post(`/jobs/${open.id}/fail`, { retries: 0, errorMessage: "audit down" })).ok()
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incident).toMatchObject({ nodeId: "pl-failing", type: "JOB_NO_RETRIES" })
    ;(await owner.post(`/incidents/${incident.id}/retry`)).ok()
    const [again] = await owner.activateJobs("pl-failing-open")
    expect(again.id).toBe(open.id)
    await owner.completeJob(again.id)
    expect(await owner.activateJobs("pl-failing-enrich")).toHaveLength(1)
  })

  it("canceling the instance withdraws the listener job and runs no end listeners", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model("pl-cancel"))
    const waiting = await owner.start(deployment.id)
    ;(await owner.post(`/process-instances/${waiting.id}/cancel`)).ok()
    expect(await owner.activateJobs("pl-cancel-open")).toEqual([])
    const running = await owner.start(deployment.id)
    for (const type of ["pl-cancel-open", "pl-cancel-enrich"]) {
      const [job] = await owner.activateJobs(type)
      await owner.completeJob(job.id)
    }
    ;(await owner.post(`/process-instances/${running.id}/cancel`)).ok()
    expect((await owner.instance(running.id)).state).toBe("CANCELED")
    expect(await owner.activateJobs("pl-cancel-charge")).toEqual([])
    expect(await owner.activateJobs("pl-cancel-close")).toEqual([])
  })
})

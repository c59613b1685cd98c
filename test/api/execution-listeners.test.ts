// Execution listeners over HTTP: a listener is a job of its type; the element waits for it, and its variables count.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = definitions(`<bpmn:process id="listened-order" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" />
    <bpmn:serviceTask id="charge">
      <bpmn:extensionElements>
        <zeebe:taskDefinition type="charge" />
        <zeebe:executionListeners>
          <zeebe:executionListener eventType="start" type="fraud-check" retries="1" />
          <zeebe:executionListener eventType="end" type="notify" />
        </zeebe:executionListeners>
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`)

describe("execution listeners", () => {
  it("hold the element until their jobs complete: start before it runs, end before it leaves", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model)
    const instance = await owner.start(deployment.id, { amount: 40 })
    expect(await owner.activateJobs("charge")).toEqual([])
    const [check] = await owner.activateJobs("fraud-check")
    expect(check.retries).toBe(1)
    await owner.completeJob(check.id, { risk: "low" })
    const [charge] = await owner.activateJobs("charge")
    expect(charge.variables).toMatchObject({ amount: 40, risk: "low" })
    await owner.completeJob(charge.id, { receipt: "R-1" })
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    const [notify] = await owner.activateJobs("notify")
    expect(notify.variables.receipt).toBe("R-1")
    await owner.completeJob(notify.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})

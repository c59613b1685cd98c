// User task canceling listeners over HTTP (Camunda 8.8): a task canceled by an interrupting message boundary event is
// canceled at once and the instance goes on; the listener's job follows, and the instance waits for it. Canceling the
// instance runs none (its cancellation is not held up).
import { describe, expect, it } from "vitest"
import { reviewModel, taskListeners } from "../support/ReviewModels.ts"
import { givenTenant } from "../support/Scenario.ts"

const model = reviewModel({
  processId: "canceled-review",
  definitions: `<bpmn:message id="withdrawn-msg" name="withdrawn">
    <bpmn:extensionElements><zeebe:subscription correlationKey="=orderId" /></bpmn:extensionElements>
  </bpmn:message>`,
  extensions: taskListeners(`<zeebe:taskListener eventType="canceling" type="task-withdrawn" />`),
  extra:
    `<bpmn:boundaryEvent id="withdrawn" attachedToRef="review"><bpmn:messageEventDefinition messageRef="withdrawn-msg" /></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="withdrawn" targetRef="closed" />
    <bpmn:endEvent id="closed" />`
})

describe("user task canceling listeners", () => {
  it("follow the task's cancellation by a boundary event; the instance ends once they completed", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model)
    const instance = await owner.start(deployment.id, { orderId: "W-1" })
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect((await owner.post("/messages", { messageName: "withdrawn", correlationKey: "W-1" })).ok(202).correlatedCount)
      .toBe(1)
    const [canceled] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect(canceled.state).toBe("CANCELED")
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    const [withdrawn] = await owner.activateJobs("task-withdrawn")
    expect(withdrawn.customHeaders["io.camunda.zeebe:userTaskKey"]).toBe(task.id)
    await owner.completeJob(withdrawn.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("do not run when the instance is canceled", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start((await owner.deploy(model)).id, { orderId: "W-2" })
    ;(await owner.post(`/process-instances/${instance.id}/cancel`, {})).ok()
    expect((await owner.instance(instance.id)).state).toBe("CANCELED")
    expect(await owner.activateJobs("task-withdrawn")).toEqual([])
  })
})

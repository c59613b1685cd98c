// Boundary events through HTTP: an interrupting message boundary (POST /messages) withdraws the task's job; a
// non-interrupting timer boundary (fired by the poller) starts a reminder path while the user task stays open.
import { describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { givenTenant } from "../support/Scenario.ts"

describe("boundary events", () => {
  it("interrupting message boundary: the message cancels the job and the process takes the boundary path", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "cancellable",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "ship", type: "serviceTask", properties: { taskType: "ship" } },
        {
          id: "cancelled",
          type: "boundaryEvent",
          properties: { attachedTo: "ship", messageName: "order-cancelled", correlationKey: "= orderId" }
        },
        { id: "refund", type: "serviceTask", properties: { taskType: "refund" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "ship" },
        { id: "f2", source: "ship", target: "e1" },
        { id: "f3", source: "cancelled", target: "refund" },
        { id: "f4", source: "refund", target: "e2" }
      ]
    })
    const instance = await owner.start(deployment.id, { orderId: "B-1" })
    const [subscription] = (await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()
    expect(subscription).toMatchObject({
      kind: "MESSAGE",
      nodeId: "cancelled",
      name: "order-cancelled",
      correlationKey: "B-1"
    })
    expect(
      (await owner.post("/messages", {
        messageName: "order-cancelled",
        correlationKey: "B-1",
        variables: { reason: "late" }
      })).ok(202).correlatedCount
    ).toBe(1)
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}&type=ship`)).ok().items[0].state).toBe("CANCELED")
    const [refund] = await owner.activateJobs("refund")
    expect(refund.variables).toMatchObject({ orderId: "B-1", reason: "late" })
    await owner.completeJob(refund.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("non-interrupting timer boundary: a reminder path starts while the task stays open", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy({
      id: "reminded",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "approve", type: "userTask", name: "Approve" },
        {
          id: "nudge",
          type: "boundaryEvent",
          properties: { attachedTo: "approve", cancelActivity: false, timeDuration: "PT24H" }
        },
        { id: "remind", type: "serviceTask", properties: { taskType: "remind" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "approve" },
        { id: "f2", source: "approve", target: "e1" },
        { id: "f3", source: "nudge", target: "remind" },
        { id: "f4", source: "remind", target: "e2" }
      ]
    })
    const instance = await owner.start(deployment.id)
    tenant.app.clock.advance("25 hours")
    await tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    const later = await tenant.owner()
    const [remind] = await later.activateJobs("remind")
    expect(remind.processInstanceId).toBe(instance.id)
    const [task] = await later.tasks(`?processInstanceId=${instance.id}&state=CREATED`)
    expect(task.nodeId).toBe("approve")
    await later.completeJob(remind.id)
    await later.completeTask(task.id)
    expect((await later.instance(instance.id)).state).toBe("COMPLETED")
  })
})

describe("job errors", () => {
  it("POST /jobs/{id}/error: caught by the error boundary (job ERROR_THROWN), uncaught -> incident", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "payments",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "charge", type: "serviceTask", properties: { taskType: "charge" } },
        { id: "declined", type: "boundaryEvent", properties: { attachedTo: "charge", errorCode: "DECLINED" } },
        { id: "notify", type: "serviceTask", properties: { taskType: "notify-declined" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "charge" },
        { id: "f2", source: "charge", target: "e1" },
        { id: "f3", source: "declined", target: "notify" },
        { id: "f4", source: "notify", target: "e2" }
      ]
    })
    const caught = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("charge")
    const thrown = (await owner.post(`/jobs/${job.id}/error`, {
      errorCode: "DECLINED",
      errorMessage: "insufficient funds",
      variables: { code: 51 }
    })).ok()
    expect(thrown.state).toBe("ERROR_THROWN")
    const [notify] = await owner.activateJobs("notify-declined")
    expect(notify).toMatchObject({ processInstanceId: caught.id, variables: { code: 51 } })
    ;(await owner.post(`/jobs/${job.id}/error`, { errorCode: "DECLINED" })).fails(409, "CONFLICT")

    const uncaught = await owner.start(deployment.id)
    const [second] = await owner.activateJobs("charge")
    ;(await owner.post(`/jobs/${second.id}/error`, { errorCode: "FRAUD" })).ok()
    const [incident] = (await owner.get(`/incidents?processInstanceId=${uncaught.id}`)).ok().items
    expect(incident).toMatchObject({ nodeId: "charge", type: "UNHANDLED_ERROR_EVENT" })
    ;(await owner.post(`/jobs/${second.id}/error`, {})).fails(400, "VALIDATION_ERROR")
  })
})

describe("event-based gateway", () => {
  it("a published message wins the race against the timer", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "await-payment-or-timeout",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "gw", type: "eventBasedGateway" },
        {
          id: "paid",
          type: "intermediateCatchEvent",
          properties: { messageName: "paid", correlationKey: "= orderId" }
        },
        { id: "late", type: "intermediateCatchEvent", properties: { timeDuration: "PT1H" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f0", source: "s", target: "gw" },
        { id: "f1", source: "gw", target: "paid" },
        { id: "f2", source: "gw", target: "late" },
        { id: "f3", source: "paid", target: "e1" },
        { id: "f4", source: "late", target: "e2" }
      ]
    })
    const instance = await owner.start(deployment.id, { orderId: "G-1" })
    expect(
      (await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok().map((s: { kind: string }) =>
        s.kind
      ).sort()
    ).toEqual(["MESSAGE", "TIMER"])
    expect((await owner.post("/messages", { messageName: "paid", correlationKey: "G-1" })).ok(202).correlatedCount)
      .toBe(1)
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    const nodes = (await owner.history(instance.id)).map((e: { nodeId: string | null }) => e.nodeId)
    expect(nodes).toContain("e1")
    expect(nodes).not.toContain("e2")
  })
})

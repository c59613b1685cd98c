// Event subprocesses through HTTP: message, timer, signal, error and conditional starts; interrupting (everything
// else in the scope ends) and non-interrupting (runs alongside); at process level and inside an embedded subprocess.
import { describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { eventually } from "../support/Eventually.ts"
import { givenTenant } from "../support/Scenario.ts"

/** start -> work (job `type`) -> end, plus the given event subprocess at process level. */
const withEventSubprocess = (id: string, start: Record<string, unknown>, handlerType = "handle") => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: `${id}-work` } },
    { id: "e", type: "endEvent" },
    {
      id: "esp",
      type: "subProcess",
      properties: {
        triggeredByEvent: true,
        nodes: [
          { id: "esp-start", type: "startEvent", properties: start },
          { id: "esp-handle", type: "serviceTask", properties: { taskType: `${id}-${handlerType}` } },
          { id: "esp-end", type: "endEvent" }
        ],
        flows: [{ id: "ef1", source: "esp-start", target: "esp-handle" }, {
          id: "ef2",
          source: "esp-handle",
          target: "esp-end"
        }]
      }
    }
  ],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
})

describe("event subprocesses", () => {
  it("interrupting message start: the main path is cancelled, the handler runs, then the instance completes", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      withEventSubprocess("esp-msg", { messageName: "cancel-order", correlationKey: "= orderId" })
    )
    const instance = await owner.start(deployment.id, { orderId: "O-1" })
    const [subscription] = (await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()
    expect(subscription).toMatchObject({
      kind: "MESSAGE",
      nodeId: "esp-start",
      name: "cancel-order",
      correlationKey: "O-1"
    })

    const published = (await owner.post("/messages", {
      messageName: "cancel-order",
      correlationKey: "O-1",
      variables: { reason: "customer" }
    })).ok(202)
    expect(published.correlatedCount).toBe(1)
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}&type=esp-msg-work`)).ok().items[0].state).toBe(
      "CANCELED"
    )
    const [handler] = await owner.activateJobs("esp-msg-handle")
    expect(handler.variables).toMatchObject({ orderId: "O-1", reason: "customer" })
    // Interrupting: the other subscriptions of the scope are gone, a second message finds nothing.
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    expect(
      (await owner.post("/messages", { messageName: "cancel-order", correlationKey: "O-1" })).ok(202).correlatedCount
    ).toBe(0)
    await owner.completeJob(handler.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    const types = (await owner.history(instance.id)).map((e: { type: string; nodeId: string | null }) =>
      `${e.type}:${e.nodeId}`
    )
    expect(types).toContain("ElementTerminated:work")
    expect(types).toContain("BoundaryTriggered:esp-start")
    expect(types).toContain("ElementCompleted:esp")
  })

  it("non-interrupting message start: each message runs the handler alongside; the instance ends when all are done", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      withEventSubprocess("esp-nonint", {
        messageName: "status-request",
        correlationKey: "= orderId",
        interrupting: false
      })
    )
    const instance = await owner.start(deployment.id, { orderId: "O-2" })
    expect(
      (await owner.post("/messages", { messageName: "status-request", correlationKey: "O-2" })).ok(202).correlatedCount
    ).toBe(1)
    expect(
      (await owner.post("/messages", { messageName: "status-request", correlationKey: "O-2" })).ok(202).correlatedCount
    ).toBe(1)
    const handlers = await owner.activateJobs("esp-nonint-handle", { maxJobsToActivate: 5 })
    expect(handlers).toHaveLength(2)
    const [work] = await owner.activateJobs("esp-nonint-work")
    await owner.completeJob(work.id)
    // The main path ended, but two handlers still run: the instance waits for them.
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    await owner.completeJob(handlers[0].id)
    await owner.completeJob(handlers[1].id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
  })

  it("timer cycle start (non-interrupting) starts the event subprocess at each occurrence, R<n> times", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(
      withEventSubprocess("esp-cycle", { timeCycle: "R2/PT30M", interrupting: false }, "remind")
    )
    const instance = await owner.start(deployment.id)
    const fire = () => tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    for (const expected of [1, 2, 2]) {
      tenant.app.clock.advance("31 minutes")
      await fire()
      const reminders =
        (await (await tenant.owner()).get(`/jobs?processInstanceId=${instance.id}&type=esp-cycle-remind`)).ok()
      expect(reminders.totalItems).toBe(expected)
    }
    expect((await (await tenant.owner()).get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
  })

  it("timer start (non-interrupting) fires once when due; the subscription is withdrawn when the instance completes", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(
      withEventSubprocess("esp-timer", { timeDuration: "PT1H", interrupting: false }, "escalate")
    )
    const instance = await owner.start(deployment.id)
    tenant.app.clock.advance("2 hours")
    await tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    const fresh = await tenant.owner()
    const [escalation] = await fresh.activateJobs("esp-timer-escalate")
    expect(escalation.processInstanceId).toBe(instance.id)
    await fresh.completeJob(escalation.id)
    const [work] = await fresh.activateJobs("esp-timer-work")
    await fresh.completeJob(work.id)
    expect((await fresh.instance(instance.id)).state).toBe("COMPLETED")

    // Completing before the timer is due withdraws the timer.
    const second = await fresh.start(deployment.id)
    const [secondWork] = await fresh.activateJobs("esp-timer-work")
    expect(
      (await fresh.get(`/process-instances/${second.id}/event-subscriptions`)).ok().map((s: { kind: string }) => s.kind)
    ).toEqual(["TIMER"])
    await fresh.completeJob(secondWork.id)
    expect((await fresh.instance(second.id)).state).toBe("COMPLETED")
    expect((await fresh.get(`/process-instances/${second.id}/event-subscriptions`)).ok()).toEqual([])
  })

  it("error start catches a job's business error anywhere in the scope; other codes stay incidents", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(withEventSubprocess("esp-error", { errorCode: "OUT_OF_STOCK" }, "compensate"))
    const caught = await owner.start(deployment.id, { sku: "A" })
    const [job] = await owner.activateJobs("esp-error-work")
    ;(await owner.post(`/jobs/${job.id}/error`, { errorCode: "OUT_OF_STOCK", variables: { missing: 3 } })).ok()
    const [compensate] = await owner.activateJobs("esp-error-compensate")
    expect(compensate).toMatchObject({ processInstanceId: caught.id, variables: { sku: "A", missing: 3 } })
    await owner.completeJob(compensate.id)
    expect((await owner.instance(caught.id)).state).toBe("COMPLETED")

    const uncaught = await owner.start(deployment.id)
    const [other] = await owner.activateJobs("esp-error-work")
    ;(await owner.post(`/jobs/${other.id}/error`, { errorCode: "FRAUD" })).ok()
    const [incident] = (await owner.get(`/incidents?processInstanceId=${uncaught.id}`)).ok().items
    expect(incident).toMatchObject({ nodeId: "work", type: "UNHANDLED_ERROR_EVENT" })
  })

  it("inside an embedded subprocess: an error end event is caught by the subprocess's event subprocess, and the process goes on", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "nested-esp",
      nodes: [
        { id: "s", type: "startEvent" },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            nodes: [
              { id: "ss", type: "startEvent" },
              { id: "check", type: "exclusiveGateway" },
              { id: "fail", type: "endEvent", properties: { errorCode: "INVALID" } },
              { id: "ok", type: "endEvent" },
              {
                id: "fix",
                type: "subProcess",
                properties: {
                  triggeredByEvent: true,
                  nodes: [
                    { id: "fs", type: "startEvent", properties: { error: true } },
                    { id: "repair", type: "serviceTask", properties: { taskType: "repair" } },
                    { id: "fe", type: "endEvent" }
                  ],
                  flows: [{ id: "g1", source: "fs", target: "repair" }, { id: "g2", source: "repair", target: "fe" }]
                }
              }
            ],
            flows: [
              { id: "h1", source: "ss", target: "check" },
              { id: "h2", source: "check", target: "fail", condition: "= valid = false" },
              { id: "h3", source: "check", target: "ok", default: true }
            ]
          }
        },
        { id: "after", type: "serviceTask", properties: { taskType: "after-sub" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "sub" }, { id: "f2", source: "sub", target: "after" }, {
        id: "f3",
        source: "after",
        target: "e"
      }]
    })
    const instance = await owner.start(deployment.id, { valid: false })
    const [repair] = await owner.activateJobs("repair")
    expect(repair.processInstanceId).toBe(instance.id)
    await owner.completeJob(repair.id)
    const [after] = await owner.activateJobs("after-sub")
    expect(after.processInstanceId).toBe(instance.id)
    await owner.completeJob(after.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("signal start inside an embedded subprocess is armed only while the subprocess runs", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "sub-signal",
      nodes: [
        { id: "s", type: "startEvent" },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            nodes: [
              { id: "ss", type: "startEvent" },
              { id: "inner", type: "userTask", name: "Inner" },
              { id: "se", type: "endEvent" },
              {
                id: "halt",
                type: "subProcess",
                properties: {
                  triggeredByEvent: true,
                  nodes: [{ id: "hs", type: "startEvent", properties: { signalName: "halt-all" } }, {
                    id: "he",
                    type: "endEvent"
                  }],
                  flows: [{ id: "k1", source: "hs", target: "he" }]
                }
              }
            ],
            flows: [{ id: "j1", source: "ss", target: "inner" }, { id: "j2", source: "inner", target: "se" }]
          }
        },
        { id: "outer", type: "userTask", name: "Outer" },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "sub" }, { id: "f2", source: "sub", target: "outer" }, {
        id: "f3",
        source: "outer",
        target: "e"
      }]
    })
    const instance = await owner.start(deployment.id)
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toMatchObject([{
      kind: "SIGNAL",
      nodeId: "hs",
      name: "halt-all"
    }])
    expect((await owner.post("/signals", { signalName: "halt-all" })).ok(202).correlatedCount).toBe(1)
    const [outer] = await owner.tasks(`?processInstanceId=${instance.id}&state=CREATED`)
    expect(outer.nodeId).toBe("outer")
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    await owner.completeTask(outer.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("is refused at deploy when it has flows, or its start event has no trigger", async () => {
    const owner = await (await givenTenant()).owner()
    const model = withEventSubprocess("esp-bad", {})
    const reply = (await owner.post("/deployments", model)).fails(400, "VALIDATION_ERROR")
    expect(reply.errors).toContainEqual(
      expect.objectContaining({
        field: "esp-start",
        message: expect.stringContaining("needs a message, timer, signal, error or conditional")
      })
    )
    const withFlow = withEventSubprocess("esp-bad-flow", { signalName: "x" })
    const flowed = (await owner.post("/deployments", {
      ...withFlow,
      flows: [...withFlow.flows, { id: "f9", source: "work", target: "esp" }]
    })).fails(400, "VALIDATION_ERROR")
    expect(flowed.errors).toContainEqual(
      expect.objectContaining({ field: "esp", message: expect.stringContaining("cannot have incoming or outgoing") })
    )
  })
})

describe("conditional events", () => {
  it("a conditional catch event waits until a variable change makes its condition true", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "wait-for-stock",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "in-stock", type: "intermediateCatchEvent", properties: { condition: "= stock > 0" } },
        { id: "ship", type: "serviceTask", properties: { taskType: "ship-stock" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "in-stock" }, { id: "f2", source: "in-stock", target: "ship" }, {
        id: "f3",
        source: "ship",
        target: "e"
      }]
    })
    const waiting = await owner.start(deployment.id, { stock: 0 })
    expect((await owner.get(`/process-instances/${waiting.id}/tokens`)).ok()).toMatchObject([{
      nodeId: "in-stock",
      waitingFor: "CONDITION"
    }])
    ;(await owner.put(`/process-instances/${waiting.id}/variables`, { variables: { stock: 0, note: "still none" } }))
      .ok()
    expect(await owner.activateJobs("ship-stock")).toEqual([])
    ;(await owner.put(`/process-instances/${waiting.id}/variables`, { variables: { stock: 5 } })).ok()
    const [ship] = await owner.activateJobs("ship-stock")
    expect(ship.processInstanceId).toBe(waiting.id)

    // Already true on arrival: the token passes at once.
    const passing = await owner.start(deployment.id, { stock: 2 })
    const [direct] = await owner.activateJobs("ship-stock")
    expect(direct.processInstanceId).toBe(passing.id)
  })

  it("conditional boundary events: interrupting cancels the task; non-interrupting triggers once per rise of the condition", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "watch-amount",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "review", type: "userTask", name: "Review" },
        { id: "too-big", type: "boundaryEvent", properties: { attachedTo: "review", condition: "= amount > 1000" } },
        {
          id: "changed",
          type: "boundaryEvent",
          properties: { attachedTo: "review", cancelActivity: false, condition: "= flagged = true" }
        },
        { id: "escalate", type: "serviceTask", properties: { taskType: "escalate-amount" } },
        { id: "notify", type: "serviceTask", properties: { taskType: "notify-flag" } },
        { id: "e1", type: "endEvent" },
        { id: "e2", type: "endEvent" },
        { id: "e3", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "review" },
        { id: "f2", source: "review", target: "e1" },
        { id: "f3", source: "too-big", target: "escalate" },
        { id: "f4", source: "escalate", target: "e2" },
        { id: "f5", source: "changed", target: "notify" },
        { id: "f6", source: "notify", target: "e3" }
      ]
    })
    const instance = await owner.start(deployment.id, { amount: 10, flagged: false })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { flagged: true } })).ok() // Stays true: no second trigger.
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { note: "x" } })).ok()
    expect(await owner.activateJobs("notify-flag", { maxJobsToActivate: 5 })).toHaveLength(1)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}&state=CREATED`)
    expect(task.nodeId).toBe("review")
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { amount: 5000 } })).ok()
    expect((await owner.tasks(`?processInstanceId=${instance.id}&state=CANCELED`))[0].id).toBe(task.id)
    expect(await owner.activateJobs("escalate-amount")).toHaveLength(1)
  })

  it("an interrupting conditional event subprocess starts when the variables make its condition true", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      withEventSubprocess("esp-cond", { condition: "= risk = \"high\"" }, "review-risk")
    )
    const instance = await owner.start(deployment.id, { risk: "low" })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { risk: "high" } })).ok()
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}&type=esp-cond-work`)).ok().items[0].state).toBe(
      "CANCELED"
    )
    const [review] = await owner.activateJobs("esp-cond-review-risk")
    expect(review.processInstanceId).toBe(instance.id)
    await owner.completeJob(review.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})

describe("signal throw events", () => {
  it("an intermediate signal throw broadcasts to waiting instances and signal start events; a signal end event too", async () => {
    const owner = await (await givenTenant()).owner()
    const listener = await owner.deploy({
      id: "listener",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "wait", type: "intermediateCatchEvent", properties: { signalName: "stock-updated" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "e" }]
    })
    await owner.deploy({
      id: "started-by-signal",
      nodes: [
        { id: "s", type: "startEvent", properties: { signalName: "stock-updated" } },
        { id: "react", type: "serviceTask", properties: { taskType: "react-to-stock" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "react" }, { id: "f2", source: "react", target: "e" }]
    })
    const thrower = await owner.deploy({
      id: "thrower",
      nodes: [
        { id: "s", type: "startEvent" },
        {
          id: "announce",
          type: "intermediateThrowEvent",
          properties: { signalName: "stock-updated", inputMappings: [{ source: "= sku", target: "sku" }] }
        },
        { id: "done", type: "endEvent", properties: { signalName: "thrower-done" } }
      ],
      flows: [{ id: "f1", source: "s", target: "announce" }, { id: "f2", source: "announce", target: "done" }]
    })
    const waiting = await owner.start(listener.id)
    const thrown = await owner.start(thrower.id, { sku: "SKU-9" })
    expect((await owner.instance(thrown.id)).state).toBe("COMPLETED")
    await eventually(async () => expect((await owner.instance(waiting.id)).state).toBe("COMPLETED"))
    const [react] = await eventually(async () => {
      const jobs = await owner.activateJobs("react-to-stock")
      expect(jobs).toHaveLength(1)
      return jobs
    })
    expect(react.variables).toMatchObject({ sku: "SKU-9" })
    const types = (await owner.history(thrown.id)).map((e: { type: string; nodeId: string | null }) =>
      `${e.type}:${e.nodeId}`
    )
    expect(types).toContain("SignalThrown:announce")
    expect(types).toContain("SignalThrown:done")
  })
})

describe("link events", () => {
  it("a link throw continues at the link catch of the same name; a missing catch is refused at deploy", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (catchName: string) => ({
      id: "linked",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "goto", type: "intermediateThrowEvent", properties: { linkName: "page-2" } },
        { id: "landing", type: "intermediateCatchEvent", properties: { linkName: catchName } },
        { id: "work", type: "serviceTask", properties: { taskType: "after-link" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "goto" }, { id: "f2", source: "landing", target: "work" }, {
        id: "f3",
        source: "work",
        target: "e"
      }]
    })
    const refused = (await owner.post("/deployments", model("elsewhere"))).fails(400, "VALIDATION_ERROR")
    expect(refused.errors).toContainEqual(
      expect.objectContaining({
        field: "goto",
        message: expect.stringContaining("no link catch event named \"page-2\"")
      })
    )
    const deployment = await owner.deploy(model("page-2"))
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("after-link")
    expect(job.processInstanceId).toBe(instance.id)
    const nodes = (await owner.history(instance.id)).map((e: { type: string; nodeId: string | null }) =>
      `${e.type}:${e.nodeId}`
    )
    expect(nodes).toEqual(
      expect.arrayContaining(["ElementCompleted:goto", "ElementActivated:landing", "ElementCompleted:landing"])
    )
  })
})

describe("escalation events", () => {
  const model = (boundary: Record<string, unknown>) => ({
    id: "escalating",
    nodes: [
      { id: "s", type: "startEvent" },
      {
        id: "sub",
        type: "subProcess",
        properties: {
          nodes: [
            { id: "ss", type: "startEvent" },
            { id: "raise", type: "intermediateThrowEvent", properties: { escalationCode: "LATE" } },
            { id: "inner", type: "serviceTask", properties: { taskType: "esc-inner" } },
            { id: "se", type: "endEvent" }
          ],
          flows: [{ id: "g1", source: "ss", target: "raise" }, { id: "g2", source: "raise", target: "inner" }, {
            id: "g3",
            source: "inner",
            target: "se"
          }]
        }
      },
      { id: "caught", type: "boundaryEvent", properties: { attachedTo: "sub", ...boundary } },
      { id: "notify", type: "serviceTask", properties: { taskType: "esc-notify" } },
      { id: "e1", type: "endEvent" },
      { id: "e2", type: "endEvent" }
    ],
    flows: [
      { id: "f1", source: "s", target: "sub" },
      { id: "f2", source: "sub", target: "e1" },
      { id: "f3", source: "caught", target: "notify" },
      { id: "f4", source: "notify", target: "e2" }
    ]
  })

  it("non-interrupting: the boundary path starts and the thrower goes on; interrupting: the subprocess ends", async () => {
    const owner = await (await givenTenant()).owner()
    const gentle = await owner.deploy(model({ escalationCode: "LATE", cancelActivity: false }))
    const first = await owner.start(gentle.id)
    const [notify] = await owner.activateJobs("esc-notify")
    const [inner] = await owner.activateJobs("esc-inner")
    expect([notify.processInstanceId, inner.processInstanceId]).toEqual([first.id, first.id])
    const thrown = (await owner.history(first.id)).find((e: { type: string }) => e.type === "EscalationThrown")
    expect(thrown).toMatchObject({ nodeId: "raise", data: { escalationCode: "LATE", caughtBy: "caught" } })

    const hard = await owner.deploy(model({ escalation: true }))
    const second = await owner.start(hard.id)
    const [notify2] = await owner.activateJobs("esc-notify")
    expect(notify2.processInstanceId).toBe(second.id)
    expect(await owner.activateJobs("esc-inner")).toEqual([])
  })

  it("an escalation nothing catches is no incident: the thrower goes on", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(model({ escalationCode: "OTHER" }))
    const instance = await owner.start(deployment.id)
    const [inner] = await owner.activateJobs("esc-inner")
    expect(inner.processInstanceId).toBe(instance.id)
    expect((await owner.instance(instance.id)).incidentCount).toBe(0)
    const refused = (await owner.post("/deployments", {
      ...model({ escalationCode: "LATE" }),
      nodes: [...model({}).nodes.slice(0, 2), {
        id: "caught",
        type: "boundaryEvent",
        properties: { attachedTo: "s", escalationCode: "X" }
      }]
    })).fails(400, "VALIDATION_ERROR")
    expect(JSON.stringify(refused.errors)).toContain("caught")
  })
})

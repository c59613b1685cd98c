// Races the per-instance entity exists to settle: events for the same instance arriving at once are applied one at
// a time, so each iteration ends with exactly one outcome and a consistent history.
import { describe, expect, it } from "vitest"
import { TimerPoller } from "../../src/actors/TimerPoller.ts"
import { givenTenant } from "../support/Scenario.ts"

const ITERATIONS = 12

const interruptible = (boundary: Record<string, unknown>) => ({
  id: "racy",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "racy-work" } },
    { id: "b", type: "boundaryEvent", properties: { attachedTo: "work", ...boundary } },
    { id: "normal", type: "endEvent" },
    { id: "interrupted", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "normal" }, {
    id: "f3",
    source: "b",
    target: "interrupted"
  }]
})

const endedAt = (history: Array<{ type: string; nodeId: string | null }>) =>
  history.filter((e) => e.type === "ElementCompleted" && (e.nodeId === "normal" || e.nodeId === "interrupted")).map((
    e
  ) => e.nodeId)

describe("races", () => {
  it("a job completion and an interrupting message: exactly one wins", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(interruptible({ messageName: "stop", correlationKey: "= key" }))
    for (let i = 0; i < ITERATIONS; i++) {
      const instance = await owner.start(deployment.id, { key: `k${i}` })
      const [job] = (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items
      const [completion, message] = await Promise.all([
        owner.post(`/jobs/${job.id}/complete`, { variables: {} }),
        owner.post("/messages", { messageName: "stop", correlationKey: `k${i}` })
      ])
      const history = await owner.history(instance.id)
      const ends = endedAt(history)
      expect(ends, `iteration ${i}`).toHaveLength(1)
      expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
      // the loser was refused or found nothing: never both applied
      if (ends[0] === "normal") expect(message.body.data.correlatedCount).toBe(0)
      else expect(completion.status).not.toBe(200)
      expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    }
  })

  it("a message and an interrupting timer due at the same moment: exactly one path", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy({
      id: "message-or-timeout",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "wait", type: "receiveTask", properties: { messageName: "answer", correlationKey: "= key" } },
        { id: "b", type: "boundaryEvent", properties: { attachedTo: "wait", timeDuration: "PT1M" } },
        { id: "normal", type: "endEvent" },
        { id: "interrupted", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "normal" }, {
        id: "f3",
        source: "b",
        target: "interrupted"
      }]
    })
    const ids: Array<string> = []
    for (let i = 0; i < ITERATIONS; i++) ids.push((await owner.start(deployment.id, { key: `t${i}` })).id)
    tenant.app.clock.advance("2 minutes")
    const caller = await tenant.owner()
    await Promise.all([
      tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue)),
      ...ids.map((_, i) => caller.post("/messages", { messageName: "answer", correlationKey: `t${i}` }))
    ])
    await tenant.app.runtime.runPromise(TimerPoller.use((poller) => poller.fireDue))
    for (const id of ids) {
      const history = await caller.history(id)
      expect(endedAt(history), id).toHaveLength(1)
      expect((await caller.instance(id)).state).toBe("COMPLETED")
    }
  })

  it("a cancel and a correlation: the instance ends canceled, with at most one correlation and nothing left open", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "cancel-vs-message",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "wait", type: "receiveTask", properties: { messageName: "go", correlationKey: "= key" } },
        { id: "work", type: "serviceTask", properties: { taskType: "after-go" } },
        { id: "e", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "work" }, {
        id: "f3",
        source: "work",
        target: "e"
      }]
    })
    for (let i = 0; i < ITERATIONS; i++) {
      const instance = await owner.start(deployment.id, { key: `c${i}` })
      await Promise.all([
        owner.post(`/process-instances/${instance.id}/cancel`),
        owner.post("/messages", { messageName: "go", correlationKey: `c${i}` })
      ])
      const history = await owner.history(instance.id)
      expect(history.filter((e: { type: string }) => e.type === "MessageCorrelated").length).toBeLessThanOrEqual(1)
      expect((await owner.instance(instance.id)).state).toBe("CANCELED")
      expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
      expect((await owner.get(`/jobs?processInstanceId=${instance.id}&state=ACTIVATABLE`)).ok().totalItems).toBe(0)
    }
  })

  it("two messages for one non-interrupting boundary: both start their own path, the task keeps running", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      interruptible({ messageName: "ping", correlationKey: "= key", cancelActivity: false })
    )
    for (let i = 0; i < 4; i++) {
      const instance = await owner.start(deployment.id, { key: `p${i}` })
      const replies = await Promise.all([
        owner.post("/messages", { messageName: "ping", correlationKey: `p${i}` }),
        owner.post("/messages", { messageName: "ping", correlationKey: `p${i}` })
      ])
      expect(replies.map((r) => r.body.data.correlatedCount)).toEqual([1, 1])
      const history = await owner.history(instance.id)
      expect(history.filter((e: { type: string }) => e.type === "BoundaryTriggered")).toHaveLength(2)
      expect(endedAt(history)).toEqual(["interrupted", "interrupted"])
      expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    }
  })
})

// Exactly once, whatever the network does: a messageId is deduplicated for the retention whether its first publish
// finished or was interrupted (an interrupted one is finished by its retry or by the recovery, never twice), and an
// Idempotency-Key makes starts, publishes, signals, job and task completions safe to retry.
import { describe, expect, it } from "vitest"
import { Messages } from "../../src/services/events/Messages.ts"
import { fingerprintOf, IdempotentRequests } from "../../src/services/IdempotentRequests.ts"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { fixture, givenTenant, type Tenant } from "../support/Scenario.ts"

/** A publish that claimed its messageId and then died (the process crashed before correlating anything). */
const interruptedPublish = (
  tenant: Tenant,
  ownerSub: string,
  message: { messageName: string; correlationKey: string; messageId: string }
) =>
  tenant.app.runtime.runPromise(IdempotentRequests.use((requests) =>
    requests.claim({
      tenantId: tenant.id,
      scope: "message",
      key: message.messageId,
      fingerprint: fingerprintOf("message", message),
      actor: ownerSub,
      request: message
    })
  ))

describe("messageId: once per id", () => {
  it("a finished publish is not correlated again by a re-send", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const first = await owner.start(deployment.id, { orderId: "K1" })
    const message = { messageName: "payment-received", correlationKey: "K1", messageId: "pay-K1" }
    expect((await owner.post("/messages", message)).ok(202)).toMatchObject({
      correlatedCount: 1,
      instanceIds: [first.id]
    })
    // a second instance now waits with the same key: the re-sent message must not reach it
    const second = await owner.start(deployment.id, { orderId: "K1" })
    ;(await owner.post("/messages", message)).fails(409, "CONFLICT")
    expect((await owner.get(`/process-instances/${second.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      name: "payment-received"
    })
    // another id is another message
    expect((await owner.post("/messages", { ...message, messageId: "pay-K1-b" })).ok(202).instanceIds).toEqual([
      second.id
    ])
  })

  it("an interrupted publish is finished by its re-send, once", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const waiting = await owner.start(deployment.id, { orderId: "K2" })
    const message = { messageName: "payment-received", correlationKey: "K2", messageId: "pay-K2" }
    await interruptedPublish(tenant, "someone", message)
    expect((await owner.post("/messages", message)).ok(202)).toMatchObject({
      correlatedCount: 1,
      instanceIds: [waiting.id]
    })
    expect((await owner.history(waiting.id)).filter((e: { type: string }) => e.type === "MessageCorrelated"))
      .toHaveLength(1)
    ;(await owner.post("/messages", message)).fails(409, "CONFLICT")
  })

  it("an interrupted publish nobody re-sends is finished by the recovery; nothing stays in flight", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("message-wait.bpmn"))
    const waiting = await owner.start(deployment.id, { orderId: "K3" })
    const message = { messageName: "payment-received", correlationKey: "K3", messageId: "pay-K3" }
    await interruptedPublish(tenant, "someone", message)
    const recover = () => tenant.app.runtime.runPromise(Messages.use((messages) => messages.recover))
    await recover()
    // not yet: a publish may still be running for a while
    expect((await owner.get(`/process-instances/${waiting.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      name: "payment-received"
    })
    tenant.app.clock.advance("31 seconds")
    await recover()
    expect((await owner.get(`/process-instances/${waiting.id}/event-subscriptions`)).ok()[0]).toMatchObject({
      name: "order-confirmed"
    })
    ;(await owner.post("/messages", message)).fails(409, "CONFLICT")
    // after the retention the id may be used again
    tenant.app.clock.advance("25 hours")
    await recover()
    expect((await (await tenant.owner()).post("/messages", message)).ok(202).correlatedCount).toBe(0)
  })
})

describe("Idempotency-Key", () => {
  it("a start retried with the same key returns the first answer and starts nothing more, even when sent concurrently", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("idem-start"))
    const headers = { "idempotency-key": "start-order-1" }
    const body = { deploymentId: deployment.id, variables: { orderId: 1 } }
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => owner.post("/process-instances", body, { headers }))
    )
    const ids = new Set(replies.map((reply) => reply.ok(201).id))
    expect(ids.size).toBe(1)
    const again = (await owner.post("/process-instances", body, { headers })).ok(201)
    expect(again.id).toBe([...ids][0])
    expect((await owner.get(`/process-instances?deploymentId=${deployment.id}`)).ok().totalItems).toBe(1) // the same key for a different request is refused; without a key every start is a new instance
    ;(await owner.post("/process-instances", { ...body, variables: { orderId: 2 } }, { headers })).fails(
      422,
      "BUSINESS_ERROR"
    )
    ;(await owner.post("/process-instances", body)).ok(201)
    expect((await owner.get(`/process-instances?deploymentId=${deployment.id}`)).ok().totalItems).toBe(2)
  })

  it("keys belong to a tenant", async () => {
    const owner = await (await givenTenant()).owner()
    const other = await (await givenTenant()).owner()
    const mine = await owner.deploy(oneTaskModel("idem-tenant"))
    const theirs = await other.deploy(oneTaskModel("idem-tenant"))
    const headers = { "idempotency-key": "shared-key" }
    const a = (await owner.post("/process-instances", { deploymentId: mine.id }, { headers })).ok(201)
    const b = (await other.post("/process-instances", { deploymentId: theirs.id }, { headers })).ok(201)
    expect(a.id).not.toBe(b.id)
  })

  it("job and task completions, messages and signals replay their first answer", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("idem-job"))
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("idem-job-work")
    const headers = { "idempotency-key": `complete-${job.id}` }
    const first = (await owner.post(`/jobs/${job.id}/complete`, { variables: { done: true } }, { headers })).ok()
    const replay = (await owner.post(`/jobs/${job.id}/complete`, { variables: { done: true } }, { headers })).ok()
    expect(replay).toEqual(first)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")

    const approval = await owner.deploy(fixture("approval.bpmn"))
    await owner.start(approval.id, { amount: 10 })
    const tasks = await owner.tasks()
    const task = tasks.find((t: { processInstanceId: string }) => t.processInstanceId !== instance.id)
    const taskHeaders = { "idempotency-key": `task-${task.id}` }
    const done =
      (await owner.post(`/tasks/${task.id}/complete`, { variables: { approved: true } }, { headers: taskHeaders })).ok()
    expect(
      (await owner.post(`/tasks/${task.id}/complete`, { variables: { approved: true } }, { headers: taskHeaders })).ok()
    ).toEqual(done) // without the key, completing twice is a conflict, as before
    ;(await owner.post(`/tasks/${task.id}/complete`, { variables: { approved: true } })).fails(409, "CONFLICT")

    const msgHeaders = { "idempotency-key": "msg-1" }
    const published = (await owner.post("/messages", { messageName: "nobody-waits" }, { headers: msgHeaders })).ok(202)
    expect((await owner.post("/messages", { messageName: "nobody-waits" }, { headers: msgHeaders })).ok(202)).toEqual(
      published
    )
    const sigHeaders = { "idempotency-key": "sig-1" }
    const signalled = (await owner.post("/signals", { signalName: "nobody-listens" }, { headers: sigHeaders })).ok(202)
    expect((await owner.post("/signals", { signalName: "nobody-listens" }, { headers: sigHeaders })).ok(202)).toEqual(
      signalled
    )
    ;(await owner.post("/signals", { signalName: "x" }, { headers: { "idempotency-key": "" } })).fails(
      400,
      "VALIDATION_ERROR"
    )
  })
})

// The ProcessInstance entity is the only writer of an instance: concurrent commands are applied one at a time, each
// against the state the previous one left, and a duplicate delivery (same command id) changes nothing.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ProcessInstance } from "../../src/cluster/ProcessInstance.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

describe("ProcessInstance entity", () => {
  it("applies many concurrent commands one at a time", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id)
    // 20 concurrent suspend/resume requests alternate the state; each must see the state the previous one left,
    // so exactly the ones that found it ACTIVE suspend and the others are refused (or resume).
    const replies = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => owner.post(`/process-instances/${instance.id}/${i % 2 === 0 ? "suspend" : "resume"}`)
      )
    )
    const ok = replies.filter((r) => r.status === 200).length
    const conflicts = replies.filter((r) => r.status === 409).length
    expect(ok + conflicts).toBe(20)
    const history = await owner.history(instance.id)
    const toggles = history.filter((e: { type: string }) => /Suspended|Resumed/.test(e.type)).map((
      e: { type: string }
    ) => e.type)
    expect(toggles.length).toBe(ok)
    // strictly alternating: no two suspends (or resumes) in a row, which interleaved handlers would produce
    for (let i = 1; i < toggles.length; i++) expect(toggles[i]).not.toBe(toggles[i - 1])
    const seqs = history.map((e: { eventSeq: number }) => e.eventSeq)
    expect(new Set(seqs).size).toBe(seqs.length)
  })

  it("ignores a duplicate delivery of the same command id", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner("dup-tester")
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id)
    const send = () =>
      tenant.app.runtime.runPromise(
        Effect.flatMap(ProcessInstance.client, (client) =>
          client(instance.id).Execute({
            commandId: "suspend-once",
            tenantId: tenant.id,
            actor: "dup-tester",
            command: { type: "SuspendInstance" }
          }))
      )
    const first = await send()
    const second = await send()
    expect(second).toEqual(first)
    const events = (await owner.history(instance.id)).filter((e: { type: string }) => /Suspended/.test(e.type))
    expect(events).toHaveLength(1)
    expect((await owner.instance(instance.id)).state).toBe("SUSPENDED")
  })

  it("a duplicate of a command that would apply again (set variables) still changes nothing", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner("dup-setter")
    const deployment = await owner.deploy(fixture("service-task.bpmn"))
    const instance = await owner.start(deployment.id)
    const send = () =>
      tenant.app.runtime.runPromise(
        Effect.flatMap(ProcessInstance.client, (client) =>
          client(instance.id).Execute({
            commandId: "set-once",
            tenantId: tenant.id,
            actor: "dup-setter",
            command: { type: "SetVariables", variables: { n: 1 } }
          }))
      )
    const first = await send()
    const second = await send()
    expect(second).toEqual(first)
    const sets = (await owner.history(instance.id)).filter((e: { type: string }) => e.type === "VariablesSet")
    expect(sets).toHaveLength(1)
    expect((await owner.get(`/process-instances/${instance.id}/variables`)).ok().version).toBe(2)
  })
})

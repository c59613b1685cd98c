// Variable scopes through HTTP: an embedded subprocess is a scope of its own; /scopes reads and edits any scope;
// node variables are local to each later activation of their node.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const withSubprocess = {
  id: "scoped",
  nodes: [
    { id: "start", type: "startEvent" },
    {
      id: "sub",
      type: "subProcess",
      properties: {
        inputMappings: [{ source: "= 1", target: "attempt" }],
        nodes: [{ id: "subStart", type: "startEvent" }, {
          id: "inner",
          type: "serviceTask",
          properties: { taskType: "inner" }
        }, { id: "subEnd", type: "endEvent" }],
        flows: [{ id: "s1", source: "subStart", target: "inner" }, { id: "s2", source: "inner", target: "subEnd" }]
      }
    },
    { id: "after", type: "serviceTask", properties: { taskType: "after" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "sub" }, { id: "f2", source: "sub", target: "after" }, {
    id: "f3",
    source: "after",
    target: "end"
  }]
}

describe("variable scopes", () => {
  it("lists what a subprocess scope sees, each variable with its scope; sets and removes in exactly that scope", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(withSubprocess)
    const instance = await owner.start(deployment.id, { customer: "ACME", attempt: 0 })
    const tokens = (await owner.get(`/process-instances/${instance.id}/tokens`)).ok()
    expect(tokens.map((t: { nodeId: string; waitingFor: string }) => `${t.nodeId}:${t.waitingFor}`).sort()).toEqual([
      "inner:JOB",
      "sub:SUBPROCESS"
    ])

    const root = (await owner.get(`/scopes/${instance.id}/variables`)).ok()
    expect(root).toEqual([
      { name: "attempt", value: 0, scopeId: instance.id },
      { name: "customer", value: "ACME", scopeId: instance.id }
    ])
    const { Effect } = await import("effect")
    const { SqlClient } = await import("effect/sql")
    const [scope] = await tenant.app.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ scope_id: string }>`SELECT scope_id FROM instance_scopes WHERE instance_id = ${instance.id}`
      )
    )
    const subScope = scope!.scope_id
    expect((await owner.get(`/scopes/${subScope}/variables`)).ok()).toEqual([
      { name: "attempt", value: 1, scopeId: subScope },
      { name: "customer", value: "ACME", scopeId: instance.id }
    ])
    expect((await owner.put(`/scopes/${subScope}/variables/note`, { value: { text: "hi" } })).ok()).toEqual({
      name: "note",
      value: { text: "hi" },
      scopeId: subScope
    })
    expect((await owner.get(`/scopes/${subScope}/variables/note`)).ok().value).toEqual({ text: "hi" })
    expect((await owner.get(`/scopes/${instance.id}/variables/note`)).fails(404, "RESOURCE_NOT_FOUND").message).toMatch(
      /note/
    )
    expect((await owner.delete(`/scopes/${subScope}/variables/note`)).ok()).toMatchObject({
      name: "note",
      scopeId: subScope
    })
    ;(await owner.delete(`/scopes/${subScope}/variables/note`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await owner.delete(`/scopes/${subScope}/variables/customer`)).fails(404, "RESOURCE_NOT_FOUND")

    // completing the inner job: attempt exists in the subprocess scope (updated there), result is new (goes to the root)
    const [inner] = await owner.activateJobs("inner")
    expect(inner.variables).toMatchObject({ attempt: 1, customer: "ACME" })
    await owner.completeJob(inner.id, { attempt: 2, result: "done" })
    expect((await owner.instance(instance.id)).variables).toEqual({ customer: "ACME", attempt: 0, result: "done" })
    ;(await owner.get(`/scopes/${subScope}/variables`)).fails(404, "RESOURCE_NOT_FOUND")

    const audit = (await (await tenant.admin()).get("/audit-events?resourceKind=scopes")).ok()
    expect(audit.items.map((e: { method: string }) => e.method).sort()).toEqual(["DELETE", "DELETE", "DELETE", "PUT"])
  })

  it("node variables are attached to a node and seen by its next activation", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "nodevars",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "first", type: "serviceTask", properties: { taskType: "first" } },
        { id: "second", type: "serviceTask", properties: { taskType: "second" } },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "first" }, { id: "f2", source: "first", target: "second" }, {
        id: "f3",
        source: "second",
        target: "end"
      }]
    })
    const instance = await owner.start(deployment.id)
    const set =
      (await owner.put(`/process-instances/${instance.id}/nodes/second/variables`, { variables: { priority: "high" } }))
        .ok()
    expect(set).toEqual({ nodeId: "second", variables: { priority: "high" } })
    expect((await owner.get(`/process-instances/${instance.id}/node-variables`)).ok()).toEqual([{
      nodeId: "second",
      variables: { priority: "high" }
    }])
    ;(await owner.put(`/process-instances/${instance.id}/nodes/nope/variables`, { variables: {} })).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
    const [first] = await owner.activateJobs("first")
    expect(first.variables).not.toHaveProperty("priority")
    await owner.completeJob(first.id)
    const [second] = await owner.activateJobs("second")
    expect(second.variables).toMatchObject({ priority: "high" })
    expect((await owner.instance(instance.id)).variables).not.toHaveProperty("priority")
  })

  it("answers 404 for unknown or foreign scopes and needs PROCESS_OWNER to write", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const deployment = await owner.deploy(withSubprocess)
    const instance = await owner.start(deployment.id)
    ;(await owner.get("/scopes/not-a-scope/variables")).fails(404, "RESOURCE_NOT_FOUND")
    const stranger = await (await givenTenant()).owner()
    ;(await stranger.get(`/scopes/${instance.id}/variables`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await stranger.put(`/scopes/${instance.id}/variables/x`, { value: 1 })).fails(404, "RESOURCE_NOT_FOUND")
    ;(await (await tenant.taskUser()).put(`/scopes/${instance.id}/variables/x`, { value: 1 })).fails(403, "FORBIDDEN")
  })
})

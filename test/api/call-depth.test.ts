// A call tree is bounded and ends with its root: a process that calls itself (directly or through others) stops at the
// maximum call depth with an incident at the call activity, instead of starting instances for ever; and a start owed
// to an instance whose call chain has ended (its root canceled) is not made, so a cancel never chases a growing tree.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { OutboxRelay } from "../../src/actors/OutboxRelay.ts"
import { MAX_CALL_DEPTH } from "../../src/persistence/instances/CallChain.ts"
import { eventually } from "../support/Eventually.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const calling = (id: string, calls: string) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "call", type: "callActivity", properties: { processId: calls } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "call" }, { id: "f2", source: "call", target: "e" }]
})

const instancesOf = async (owner: Caller, key: string) =>
  (await owner.get(`/process-instances?processKey=${key}&size=1000`)).ok().items as Array<
    { id: string; state: string; parentInstanceId: string | null }
  >

describe("the call depth", () => {
  it(
    "stops a process calling itself through another at depth 100, with an incident naming it; the root's cancel ends the tree",
    async () => {
      const owner = await (await givenTenant()).owner()
      const ping = await owner.deploy(calling("ping", "pong"))
      await owner.deploy(calling("pong", "ping"))
      const root = await owner.start(ping.id)
      const incident = await eventually(async () => {
        const [found] = (await owner.get("/incidents")).ok().items
        if (found === undefined) throw new Error("no incident yet")
        return found
      }, { timeoutMs: 30_000 })
      expect(incident).toMatchObject({ nodeId: "call", type: "CALLED_ELEMENT_ERROR", state: "OPEN" })
      expect(incident.message).toContain(`it would be ${MAX_CALL_DEPTH + 1} calls deep`)
      expect(incident.message).toContain(`maximum call depth of ${MAX_CALL_DEPTH}`)
      // depths 0 to 100: 51 ping and 50 pong instances, and no more; the incident is at the deepest
      const all = async () => [...await instancesOf(owner, "ping"), ...await instancesOf(owner, "pong")]
      const tree = await all()
      expect(tree).toHaveLength(MAX_CALL_DEPTH + 1)
      const parentOf = new Map(tree.map((i) => [i.id, i.parentInstanceId]))
      let depth = 0
      for (let id = parentOf.get(incident.processInstanceId); id != null; id = parentOf.get(id)) depth++
      expect(depth).toBe(MAX_CALL_DEPTH)
      ;(await owner.post(`/process-instances/${root.id}/cancel`)).ok()
      await eventually(async () => {
        const states = (await all()).map((i) => i.state)
        expect(states.filter((s) => s !== "CANCELED")).toEqual([])
      }, { timeoutMs: 30_000 })
      expect(await all()).toHaveLength(MAX_CALL_DEPTH + 1)
    },
    60_000
  )
})

describe("a start owed to an instance whose call chain has ended", () => {
  it("is not made: a call delivered after the root was canceled starts no instance", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    await owner.deploy({
      id: "waiting-child",
      nodes: [{ id: "cs", type: "startEvent" }, { id: "work", type: "serviceTask", properties: { taskType: "w" } }, {
        id: "ce",
        type: "endEvent"
      }],
      flows: [{ id: "c1", source: "cs", target: "work" }, { id: "c2", source: "work", target: "ce" }]
    })
    const parent = await owner.start((await owner.deploy(calling("caller", "waiting-child"))).id)
    const [child] = await eventually(async () => {
      const found = await instancesOf(owner, "waiting-child")
      if (found.length === 0) throw new Error("child not started yet")
      return found
    })
    ;(await owner.post(`/process-instances/${parent.id}/cancel`)).ok()
    await eventually(async () => expect((await owner.instance(child!.id)).state).toBe("CANCELED"))

    // A start the caller owed before its cancel, delivered only now (a slow or retried delivery).
    const late = randomUUID()
    await tenant.app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO instance_outbox
        (tenant_id, source_instance_id, target_instance_id, kind, payload, actor, created_at)
        VALUES (${tenant.id}, ${parent.id}, ${late}, 'START_CHILD',
          ${JSON.stringify({ processKey: "waiting-child", parentNodeId: "call", variables: {} })}::jsonb,
          'test', now())`
      yield* OutboxRelay.use((relay) => relay.flush)
    }))
    ;(await owner.get(`/process-instances/${late}`)).fails(404, "RESOURCE_NOT_FOUND")
    expect(await instancesOf(owner, "waiting-child")).toHaveLength(1)
  })
})

// Migration in the pure core: the up-front plan (mapping checks) and its application (tokens, scopes, armed events),
// with replay == live for the migrated history.
import { describe, expect, it } from "vitest"
import { execute, migrate } from "../../src/engine/Execute.ts"
import { type InstanceEvent, replay } from "../../src/engine/InstanceState.ts"
import { planMigration } from "../../src/engine/Migration.ts"
import { graphOf } from "../support/Graphs.ts"

const withSubprocess = (innerTask: string, boundary: boolean) =>
  graphOf({
    id: "p",
    nodes: [
      { id: "s", type: "startEvent" },
      {
        id: "sub",
        type: "subProcess",
        properties: {
          nodes: [{ id: "ss", type: "startEvent" }, { id: innerTask, type: "userTask" }, {
            id: "se",
            type: "endEvent"
          }],
          flows: [{ id: "g1", source: "ss", target: innerTask }, { id: "g2", source: innerTask, target: "se" }]
        }
      },
      { id: "outerTask", type: "userTask" },
      { id: "e", type: "endEvent" },
      ...(boundary
        ? [{ id: "late", type: "boundaryEvent", properties: { attachedTo: "sub", timeDuration: "PT1H" } }, {
          id: "le",
          type: "endEvent"
        }]
        : [])
    ],
    flows: [
      { id: "f1", source: "s", target: "sub" },
      { id: "f2", source: "sub", target: "outerTask" },
      { id: "f3", source: "outerTask", target: "e" },
      ...(boundary ? [{ id: "f4", source: "late", target: "le" }] : [])
    ]
  })

const instanceId = "00000000-0000-7000-8000-0000000000aa"

describe("migration plan", () => {
  const v1 = withSubprocess("inner", false)
  const v2 = withSubprocess("inner2", true)
  const started = execute(v1, instanceId, undefined, { type: "StartInstance", variables: {} })
  if (!started.ok) throw new Error(started.message)

  it("lists every active node that is unmapped, and mappings to nodes that do not exist", () => {
    const plan = planMigration(v1, v2, started.state, { ghost: "inner2", sub: "nowhere" })
    expect(plan).toEqual({
      ok: false,
      problems: [
        "source node ghost does not exist in the instance's version",
        "target node nowhere does not exist in the target version",
        "active node inner (userTask) is not mapped"
      ]
    })
  })

  it("requires a node inside a subprocess to stay inside the mapped subprocess", () => {
    const plan = planMigration(v1, v2, started.state, { sub: "sub", inner: "outerTask" })
    expect(plan.ok).toBe(false)
    expect(JSON.stringify(plan)).toContain(
      "inner maps to outerTask in the process, but its enclosing subprocess sub maps to sub"
    )
  })

  it("maps equal ids when asked, and explicit mappings win", () => {
    expect(planMigration(v1, v2, started.state, { inner: "inner2" }, true)).toEqual({
      ok: true,
      mapping: { sub: "sub", inner: "inner2" }
    })
  })

  it("applies: the token and its scope take the new nodes, the new boundary event is armed, replay == live", () => {
    const migrated = migrate(v1, v2, instanceId, started.state, {
      type: "MigrateInstance",
      targetDeploymentId: "d2",
      mappings: { sub: "sub", inner: "inner2" }
    }, 0)
    if (!migrated.ok) throw new Error(migrated.message)
    const tokens = Object.values(migrated.state.tokens).map((t) => t.nodeId).sort()
    expect(tokens).toEqual(["inner2", "sub"])
    expect(Object.values(migrated.state.scopes).map((s) => s.nodeId)).toEqual(["sub"])
    expect(Object.values(migrated.state.boundaries ?? {}).map((b) => [b.nodeId, b.kind])).toEqual([["late", "timer"]])
    const events: Array<InstanceEvent> = [...started.events, ...migrated.events]
    expect(replay(instanceId, events)).toEqual(migrated.state)
    // The user task completes into the target version's path.
    const taskId =
      (Object.values(migrated.state.tokens).find((t) => t.nodeId === "inner2")!.wait as { taskId: string }).taskId
    const completed = execute(v2, instanceId, migrated.state, { type: "CompleteUserTask", taskId, variables: {} })
    if (!completed.ok) throw new Error(completed.message)
    expect(Object.values(completed.state.tokens).map((t) => t.nodeId)).toEqual(["outerTask"])
    expect(completed.state.boundaries).toEqual({})
  })
})

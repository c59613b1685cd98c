// Unit tests of the pure core: multi-instance.
import { describe, expect, it } from "vitest"
import type { InstanceEvent } from "../../../src/engine/InstanceState.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOf } from "../../support/Graphs.ts"

describe("multi-instance", () => {
  const mi = (sequential: boolean, type = "serviceTask", extra: Record<string, unknown> = {}) =>
    graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "each",
          type,
          properties: {
            ...(type === "serviceTask" ? { taskType: "each" } : {}),
            multiInstance: {
              sequential,
              inputCollection: "= items",
              inputElement: "item",
              outputCollection: "results",
              outputElement: "= if bonus = null then item * 10 else item * 10 + bonus"
            },
            ...extra
          }
        },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "each" }, { id: "f2", source: "each", target: "end" }]
    })
  const jobItems = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "JobCreated" }> => e.type === "JobCreated").map((e) =>
      e.variables["item"]
    )

  it("parallel: one job per item, results collected in item order whatever the completion order", () => {
    const s = scenario(mi(false))
    s.start({ items: [1, 2, 3] })
    expect(jobItems(s)).toEqual([1, 2, 3])
    const jobs = s.waiting("job")
    expect(jobs).toHaveLength(3)
    for (const job of [...jobs].reverse()) s.run({ type: "CompleteJob", jobId: job.id, variables: {} })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { items: [1, 2, 3], results: [10, 20, 30] } })
    expect(s.state.variables).not.toHaveProperty("item")
    expect(s.state.variables).not.toHaveProperty("loopCounter")
  })

  it("sequential: one item at a time, with loopCounter, each iteration seeing its own variables", () => {
    const s = scenario(mi(true))
    s.start({ items: [5, 6] })
    expect(s.waiting("job")).toHaveLength(1)
    expect(s.events.find((e) => e.type === "JobCreated")).toMatchObject({ variables: { item: 5, loopCounter: 1 } })
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: { bonus: 1 } })
    expect(jobItems(s)).toEqual([5, 6])
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    // bonus is new: it went to the root, so the second iteration saw it too
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { results: [51, 61], bonus: 1 } })
  })

  it("an empty collection completes at once; a non-list is an incident", () => {
    const empty = scenario(mi(false))
    empty.start({ items: [] })
    expect(empty.state).toMatchObject({ status: "COMPLETED", variables: { results: [] } })
    const wrong = scenario(mi(false))
    wrong.start({ items: 7 })
    expect(Object.values(wrong.state.incidents)[0]).toMatchObject({ nodeId: "each", type: "EXTRACT_VALUE_ERROR" })
  })

  it("works on subprocesses: each iteration runs the subprocess in its own scope", () => {
    const s = scenario(mi(false, "subProcess", {
      nodes: [{ id: "ss", type: "startEvent" }, {
        id: "calc",
        type: "scriptTask",
        properties: { expression: "= item + 1", resultVariable: "bonus" }
      }, { id: "se", type: "endEvent" }],
      flows: [{ id: "s1", source: "ss", target: "calc" }, { id: "s2", source: "calc", target: "se" }]
    }))
    s.start({ items: [1, 2], bonus: 0 })
    // bonus exists at the root: each iteration's script updates it there; results read it after each iteration
    expect(s.state.status).toBe("COMPLETED")
    expect((s.state.variables["results"] as Array<number>).length).toBe(2)
  })

  it("cancel withdraws every iteration", () => {
    const s = scenario(mi(false))
    s.start({ items: [1, 2] })
    s.run({ type: "CancelInstance" })
    expect(s.events.filter((e) => e.type === "JobCanceled")).toHaveLength(2)
    expect(s.state).toMatchObject({ status: "CANCELED", scopes: {} })
  })
})

// Unit tests of the pure core: a job records its own variables (engine/OwnVariables.ts) — a multi-instance
// iteration's item and loopCounter, its input mappings' results — while its worker gets everything it sees
// (engine/JobVariables.ts); a command's events have a size budget (RunBudget.ts, measured by JsonSize.ts).
import { describe, expect, it } from "vitest"
import { execute } from "../../src/engine/Execute.ts"
import { jsonSizeWithin } from "../../src/engine/JsonSize.ts"
import { MAX_EVENT_CHARS_PER_COMMAND } from "../../src/engine/RunBudget.ts"
import { scenario } from "../support/EngineScenario.ts"
import { graphOf } from "../support/Graphs.ts"
import { eachItem } from "../support/LoopingModels.ts"

/** eachItem whose jobs also map `= items` (the whole collection) and `= item * 10` into variables of their own. */
const eachMapping = graphOf({
  ...eachItem,
  nodes: eachItem.nodes.map((node) =>
    node.id === "each"
      ? {
        ...node,
        properties: {
          ...node.properties,
          inputMappings: [{ source: "= items", target: "all" }, { source: "= item * 10", target: "tenfold" }]
        }
      }
      : node
  )
})

describe("a job's own variables", () => {
  it("records a multi-instance iteration's item, loopCounter and mapped inputs, not the instance's variables", () => {
    const s = scenario(eachMapping)
    s.start({ items: [1, 2, 3], note: "n" })
    const created = s.events.filter((e) => e.type === "JobCreated")
    expect(created.map((e) => (e as { variables: unknown }).variables)).toEqual([
      { item: 1, loopCounter: 1, all: [1, 2, 3], tenfold: 10 },
      { item: 2, loopCounter: 2, all: [1, 2, 3], tenfold: 20 },
      { item: 3, loopCounter: 3, all: [1, 2, 3], tenfold: 30 }
    ])
    // its worker gets what it sees: the instance's variables, the item, and the inputs mapped now
    const [first] = s.waiting("job")
    expect(s.jobVariables(first!.id)).toEqual({
      items: [1, 2, 3],
      note: "n",
      item: 1,
      loopCounter: 1,
      all: [1, 2, 3],
      tenfold: 10
    })
  })

  it("refuses a command whose events would take more than the budget, naming the element", () => {
    // 200 jobs each mapping a 200,000-character collection: ~40 M characters
    const items = Array.from({ length: 200 }, () => "x".repeat(1_000))
    const result = execute(eachMapping, "i-1", undefined, { type: "StartInstance", variables: { items } })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe("UNPROCESSABLE")
    expect(result.message).toMatch(/more than 32 MiB \(the last at element each\)/)
    // 100 of them fit
    expect(
      execute(eachMapping, "i-2", undefined, {
        type: "StartInstance",
        variables: { items: items.slice(0, 100) }
      }).ok
    ).toBe(true)
  })
})

describe("a value's size as JSON, within a budget", () => {
  it("is about the length of its JSON text", () => {
    const value = { name: "order", lines: [{ sku: "a-1", qty: 2 }, { sku: "b-2", qty: 10.5 }], paid: true, note: null }
    const text = JSON.stringify(value).length
    const size = jsonSizeWithin(value, 1_000)
    expect(size).toBeGreaterThanOrEqual(text * 0.8)
    expect(size).toBeLessThanOrEqual(text * 1.5)
  })

  it("stops once past the budget: one large list referenced a million times costs no more than the budget", () => {
    const list = Array.from({ length: 1_000 }, (_, i) => `item-${i}`)
    const shared = Array.from({ length: 1_000_000 }, () => list)
    const size = jsonSizeWithin(shared, MAX_EVENT_CHARS_PER_COMMAND)
    expect(size).toBeGreaterThan(MAX_EVENT_CHARS_PER_COMMAND)
    expect(size).toBeLessThan(MAX_EVENT_CHARS_PER_COMMAND + 2_000_000)
  })
})

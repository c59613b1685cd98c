// The state's id-keyed records are copied into dictionaries (src/engine/state/IdKeyed.ts): they must read, iterate and
// serialize as the object literals they replace did, and never change the record they were copied from.
import { describe, expect, it } from "vitest"
import { withEntry, withoutEntry } from "../../src/engine/state/IdKeyed.ts"

describe("id-keyed records", () => {
  const original = JSON.parse("{\"b-1\":{\"n\":1},\"a-2\":{\"n\":2}}") as Record<string, { n: number }>

  it("adds or replaces an entry, keeping the others in their order, and leaves the original as it was", () => {
    const added = withEntry(original, "c-3", { n: 3 })
    expect(Object.keys(added)).toEqual(["b-1", "a-2", "c-3"])
    expect(JSON.stringify(added)).toBe("{\"b-1\":{\"n\":1},\"a-2\":{\"n\":2},\"c-3\":{\"n\":3}}")
    const replaced = withEntry(added, "b-1", { n: 10 })
    expect(Object.keys(replaced)).toEqual(["b-1", "a-2", "c-3"])
    expect(replaced["b-1"]).toEqual({ n: 10 })
    expect(added["b-1"]).toEqual({ n: 1 })
    expect(JSON.stringify(original)).toBe("{\"b-1\":{\"n\":1},\"a-2\":{\"n\":2}}")
  })

  it("removes an entry, and a missing key removes nothing", () => {
    const removed = withoutEntry(original, "b-1")
    expect(JSON.stringify(removed)).toBe("{\"a-2\":{\"n\":2}}")
    expect(Object.keys(withoutEntry(original, "nope"))).toEqual(["b-1", "a-2"])
    expect(Object.keys(original)).toEqual(["b-1", "a-2"])
  })

  it("holds a key that names a prototype property as an entry like any other", () => {
    const odd = withEntry({}, "__proto__", { n: 1 })
    expect(Object.keys(odd)).toEqual(["__proto__"])
    expect(JSON.parse(JSON.stringify(odd))).toEqual(JSON.parse("{\"__proto__\":{\"n\":1}}"))
    expect(Object.keys(withoutEntry(odd, "__proto__"))).toEqual([])
  })
})

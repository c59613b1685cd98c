import { describe, expect, it } from "vitest"
import type { ItemDefinition } from "../../src/decision/DecisionModel.ts"
import { FeelNumber } from "../../src/decision/feel/FeelNumber.ts"
import { coerceToType } from "../../src/decision/TypeConformance.ts"

const num = (s: string) => FeelNumber.parse(s)

const items: ItemDefinition[] = [
  { name: "tByte", typeRef: "number", isCollection: false, allowedValues: "[0..255]", components: [] },
  { name: "tColour", typeRef: "string", isCollection: false, allowedValues: "\"red\", \"green\"", components: [] },
  { name: "tBytes", typeRef: "tByte", isCollection: true, allowedValues: undefined, components: [] }
]

describe("type conformance and allowed values", () => {
  it("a value outside its type's allowed values becomes null", () => {
    expect(coerceToType(num("7"), "tByte", items)).toEqual(num("7"))
    expect(coerceToType(num("256"), "tByte", items)).toBeNull()
    expect(coerceToType("red", "tColour", items)).toBe("red")
    expect(coerceToType("blue", "tColour", items)).toBeNull()
  })
  it("collections check every element, and a single element becomes a singleton list", () => {
    expect(coerceToType([num("1"), num("2")], "tBytes", items)).toEqual([num("1"), num("2")])
    expect(coerceToType([num("1"), num("300")], "tBytes", items)).toBeNull()
    expect(coerceToType(num("1"), "tBytes", items)).toEqual([num("1")])
  })
  it("built-in types: wrong kinds are null, singleton lists unwrap one level", () => {
    expect(coerceToType("1", "number", items)).toBeNull()
    expect(coerceToType([num("10")], "number", items)).toEqual(num("10"))
    expect(coerceToType([[num("10")]], "number", items)).toBeNull()
    expect(coerceToType([num("1"), "a"], "list<number>", items)).toBeNull()
  })
})

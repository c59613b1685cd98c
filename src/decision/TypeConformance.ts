/**
 * Conformance of values to typeRefs, with the coercions DMN 1.5 §10.3.2.9.4 defines: "a singleton list is
 * converted to its single element" when the type is not a collection, "an element is converted to a singleton
 * list" when it is, and "if the value does not conform, the result is null". A value outside its item definition's
 * allowed values does not conform either.
 */
import type { ItemDefinition } from "./DecisionModel.ts"
import { compileUnaryTests, FeelScope } from "./feel/Feel.ts"
import { isSyntaxError } from "./feel/FeelParser.ts"
import {
  canonicalTypeName,
  conformsTo,
  type FeelType,
  isBuiltinTypeName,
  parseTypeText,
  type TypeResolver
} from "./feel/FeelTypes.ts"
import { isContext } from "./feel/FeelValues.ts"

const local = (typeRef: string): string => typeRef.replace(/^(feel|FEEL|xsd|tns|ns\d*):/, "").trim()

const EMPTY = FeelScope.of({})

/** Whether the value passes the allowed-values unary tests (no tests: anything passes). */
const allowed = (value: unknown, tests: string | undefined): boolean => {
  if (tests === undefined || tests.trim() === "" || value === null) return true
  const test = compileUnaryTests(tests, EMPTY)
  return isSyntaxError(test) ? true : test(EMPTY, value) === true
}

const coerceBuiltin = (value: unknown, type: FeelType): unknown => {
  if (conformsTo(value, type) === true) return value
  // One level only: [[10]] does not become a number.
  if (
    Array.isArray(value) && value.length === 1 && type.kind !== "list" &&
    !(type.kind === "named" && canonicalTypeName(type.name) === "list")
  ) {
    return conformsTo(value[0], type) === true ? value[0] : null
  }
  if (type.kind === "list" && !Array.isArray(value) && conformsTo([value], type) === true) return [value]
  return null
}

/** Returns the value coerced to the typeRef, or null when it does not conform; unknown types pass through. */
export const coerceToType = (
  value: unknown,
  typeRef: string | undefined,
  items: ReadonlyArray<ItemDefinition>,
  depth = 0
): unknown => {
  if (value === null || value === undefined || typeRef === undefined || depth > 20) return value ?? null
  const t = local(typeRef)
  const def = items.find((d) => d.name === t)
  if (def !== undefined) return coerceToItem(value, def, items, depth + 1)
  if (isBuiltinTypeName(t) || /^(list|context|range|function)\s*</.test(t)) {
    const type = parseTypeText(t)
    return type === undefined ? value : coerceBuiltin(value, type)
  }
  return value
}

const coerceToItem = (
  value: unknown,
  def: ItemDefinition,
  items: ReadonlyArray<ItemDefinition>,
  depth: number
): unknown => {
  const element = (v: unknown): unknown => {
    if (v === null) return null
    if (def.components.length > 0) {
      if (!isContext(v)) return null
      for (const c of def.components) {
        if (!(c.name in v)) return null
        const cv = coerceToItem(v[c.name], c, items, depth + 1)
        if (cv === null && v[c.name] !== null) return null
      }
      return v
    }
    const coerced = def.typeRef === undefined ? v : coerceToType(v, def.typeRef, items, depth + 1)
    return allowed(coerced, def.allowedValues) ? coerced : null
  }
  if (def.isCollection) {
    const list = Array.isArray(value) ? value : [value]
    const out = list.map(element)
    return out.some((x, i) => x === null && list[i] !== null) ? null : out
  }
  if (Array.isArray(value)) {
    return value.length === 1
      ? element(value[0])
      : def.components.length === 0 && def.typeRef === undefined
      ? value
      : element(value)
  }
  return element(value)
}

const itemType = (def: ItemDefinition): FeelType => {
  const base: FeelType = def.components.length > 0
    ? { kind: "context", entries: def.components.map((c) => ({ name: c.name, type: itemType(c) })) }
    : def.typeRef === undefined
    ? { kind: "named", name: "Any" }
    : (parseTypeText(local(def.typeRef)) ?? { kind: "named", name: local(def.typeRef) })
  return def.isCollection ? { kind: "list", element: base } : base
}

const resolvers = new WeakMap<ReadonlyArray<ItemDefinition>, TypeResolver>()

/** The model's item definitions as FEEL types, for `instance of` (allowed values are not part of the type). */
export const typeResolverFor = (items: ReadonlyArray<ItemDefinition>): TypeResolver => {
  let resolver = resolvers.get(items)
  if (resolver === undefined) {
    const types = new Map(items.map((d) => [d.name, itemType(d)]))
    resolver = (name) => types.get(local(name))
    resolvers.set(items, resolver)
  }
  return resolver
}

/**
 * JSON in and out of the API with FEEL's types kept.
 *
 * In: a JSON value becomes a FEEL value guided by its declared type (a typeRef naming a built-in type or one of the
 * model's item definitions, `importName.type` for an imported model's), recursively through item components,
 * collections, `list<T>` and `context<k: T>`: a string where a date, time, date and time or duration is declared is
 * parsed as one (a string that does not parse is a problem naming the field), a string where a range is declared is
 * parsed as a range literal ("[1..10)"), numbers become decimals. Anywhere (and whatever is declared, so also for
 * `Any` and undeclared variables) an object `{ "@type": T, "value": V }` with no other members is an explicitly
 * typed value; T is a FEEL type name (or its XML Schema spelling): number (V a JSON number or a decimal string),
 * string, boolean, date, time, date and time (dateTime), days and time duration (dayTimeDuration), years and months
 * duration (yearMonthDuration), duration (either kind), range (V a range literal, e.g. `[1..10]` or
 * `[@"2024-01-01"..@"2024-12-31"]`). A typed value that does not parse is a problem naming the field.
 *
 * Out (typed output): dates, times, date-times and durations as `{ "@type": kind, "value": ISO text }`, ranges as
 * `{ "@type": "range", "value": FEEL literal }`, a number that a JSON number cannot hold exactly as
 * `{ "@type": "number", "value": decimal text }`; everything else as plain JSON (see FeelJson.ts).
 */
import type { DecisionModel, ItemDefinition } from "./DecisionModel.ts"
import { RANGE_LITERAL_BUILTINS } from "./feel/FeelBuiltinsRangeLiteral.ts"
import { FeelFunctionValue } from "./feel/FeelFunctionValue.ts"
import { FeelNumber } from "./feel/FeelNumber.ts"
import { FeelRangeValue } from "./feel/FeelRange.ts"
import { isTemporal, temporalFromText, temporalKind, temporalText } from "./feel/FeelTemporal.ts"
import { canonicalTypeName, type FeelType, parseTypeText } from "./feel/FeelTypes.ts"
import { feelToString, isContext } from "./feel/FeelValues.ts"

export const TYPE_MEMBER = "@type"

export interface JsonProblem {
  readonly path: string
  readonly message: string
}

/** Finds an item definition by typeRef: the model's own, or `importName.name` of an imported model. */
export type ItemLookup = (typeRef: string) => ItemDefinition | undefined

const localName = (typeRef: string): string => typeRef.replace(/^(feel|FEEL|xsd|xs|tns|ns\d*):/, "").trim()

export const itemLookupOf = (model: DecisionModel): ItemLookup => (typeRef) => {
  const name = localName(typeRef)
  const own = model.itemDefinitions.find((d) => d.name === name)
  if (own !== undefined) return own
  for (const i of model.imports ?? []) {
    if (i.model !== undefined && name.startsWith(`${i.name}.`)) {
      return itemLookupOf(i.model)(name.slice(i.name.length + 1))
    }
  }
  return undefined
}

const TEMPORAL: Readonly<Record<string, string>> = {
  date: "date",
  time: "time",
  "date and time": "date and time",
  "days and time duration": "duration",
  "years and months duration": "duration"
}

const isTypedForm = (v: unknown): v is { readonly "@type": unknown; readonly value?: unknown } =>
  isContext(v) && typeof v[TYPE_MEMBER] === "string" && Object.keys(v).every((k) => k === TYPE_MEMBER || k === "value")

const parseRange = (text: unknown): unknown =>
  typeof text === "string" ? (RANGE_LITERAL_BUILTINS["range"]?.invoke([text]) ?? null) : null

/** A value of the named built-in type from its JSON text; undefined when it does not parse. */
const parseAs = (type: string, value: unknown): unknown => {
  if (type === "range") {
    const r = parseRange(value)
    return r === null ? undefined : r
  }
  const ctor = type === "duration" ? "duration" : TEMPORAL[type]
  if (ctor === undefined || typeof value !== "string") return undefined
  const parsed = temporalFromText(ctor, value.trim())
  if (!isTemporal(parsed)) return undefined
  return type === "duration" || temporalKind(parsed) === type ? parsed : undefined
}

const typedForm = (form: { readonly "@type": unknown; readonly value?: unknown }, path: string, out: JsonProblem[]) => {
  const type = canonicalTypeName(String(form[TYPE_MEMBER]))
  const value = form.value ?? null
  const bad = (what: string) => {
    out.push({ path, message: `${JSON.stringify(value)} is not ${what}` })
    return null
  }
  if (value === null) return null
  switch (type) {
    case "number": {
      const n = typeof value === "number"
        ? FeelNumber.fromNumber(value)
        : typeof value === "string"
        ? FeelNumber.parse(value.trim())
        : null
      return n ?? bad("a number")
    }
    case "string":
      return typeof value === "string" ? value : bad("a string")
    case "boolean":
      return typeof value === "boolean" ? value : bad("a boolean")
    default: {
      if (type !== "range" && type !== "duration" && TEMPORAL[type] === undefined) {
        out.push({ path: `${path}.${TYPE_MEMBER}`, message: `unknown type ${JSON.stringify(form[TYPE_MEMBER])}` })
        return null
      }
      return parseAs(type, value) ?? bad(type === "range" ? "a range literal" : `a ${type}`)
    }
  }
}

/** How deep JSON values (and item definitions referring to each other) may nest. */
const MAX_DEPTH = 100

const tooDeep = (path: string, out: JsonProblem[]): null => {
  out.push({ path, message: `nests deeper than ${MAX_DEPTH} levels (or its type refers to itself)` })
  return null
}

/** Converts without type information: typed forms, numbers as decimals, deeply. */
const untyped = (value: unknown, path: string, out: JsonProblem[], depth: number): unknown => {
  if (value === undefined || value === null) return null
  if (depth > MAX_DEPTH) return tooDeep(path, out)
  if (isTypedForm(value)) return typedForm(value, path, out)
  if (typeof value === "number") return FeelNumber.fromNumber(value)
  if (Array.isArray(value)) return value.map((v, i) => untyped(v, `${path}[${i}]`, out, depth + 1))
  if (isContext(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untyped(v, `${path}.${k}`, out, depth + 1)]))
  }
  return value
}

/** Converts a value by what was declared for it (a FEEL type, an item definition), adding problems to `out`. */
type Converter<Declared> = (
  value: unknown,
  declared: Declared,
  lookup: ItemLookup,
  path: string,
  out: JsonProblem[],
  depth: number
) => unknown

/** A context's entries, each converted by its declared entry (by name); an undeclared one without type information. */
const byEntry = <Declared extends { readonly name: string }>(
  value: Readonly<Record<string, unknown>>,
  declared: ReadonlyArray<Declared>,
  path: string,
  out: JsonProblem[],
  depth: number,
  convert: (value: unknown, entry: Declared, path: string) => unknown
): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const entry = declared.find((e) => e.name === k)
      return [k, entry === undefined ? untyped(v, `${path}.${k}`, out, depth + 1) : convert(v, entry, `${path}.${k}`)]
    })
  )

const byFeelType: Converter<FeelType> = (value, type, lookup, path, out, depth) => {
  if (depth > MAX_DEPTH) return tooDeep(path, out)
  switch (type.kind) {
    case "list":
      return Array.isArray(value)
        ? value.map((v, i) => typedValue(v, undefined, lookup, `${path}[${i}]`, out, depth + 1, type.element))
        : typedValue(value, undefined, lookup, path, out, depth + 1, type.element)
    case "context":
      if (!isContext(value)) return untyped(value, path, out, depth)
      return byEntry(
        value,
        type.entries,
        path,
        out,
        depth,
        (v, entry, at) => byFeelType(v, entry.type, lookup, at, out, depth + 1)
      )
    case "range":
      if (typeof value !== "string") return untyped(value, path, out, depth)
      return parseAs("range", value) ??
        (out.push({ path, message: `${JSON.stringify(value)} is not a range literal` }), null)
    case "function":
      return untyped(value, path, out, depth)
    case "named": {
      const name = canonicalTypeName(type.name)
      const def = lookup(type.name)
      if (def !== undefined) return byItem(value, def, lookup, path, out, depth + 1)
      if (typeof value === "string" && TEMPORAL[name] !== undefined) {
        const parsed = parseAs(name, value)
        if (parsed === undefined) out.push({ path, message: `${JSON.stringify(value)} is not a ${name}` })
        return parsed ?? null
      }
      if (typeof value === "string" && name === "range") {
        return byFeelType(value, { kind: "range", element: type }, lookup, path, out, depth + 1)
      }
      return untyped(value, path, out, depth)
    }
  }
}

const byItem: Converter<ItemDefinition> = (value, def, lookup, path, out, depth) => {
  if (depth > MAX_DEPTH) return tooDeep(path, out)
  const element = (v: unknown, at: string): unknown => {
    if (v === null || v === undefined || isTypedForm(v)) return untyped(v, at, out, depth)
    if (def.components.length > 0) {
      if (!isContext(v)) return untyped(v, at, out, depth)
      return byEntry(
        v,
        def.components,
        at,
        out,
        depth,
        (x, c, entryAt) => byItem(x, c, lookup, entryAt, out, depth + 1)
      )
    }
    return def.typeRef === undefined
      ? untyped(v, at, out, depth)
      : typedValue(v, def.typeRef, lookup, at, out, depth + 1)
  }
  if (def.isCollection && Array.isArray(value)) return value.map((v, i) => element(v, `${path}[${i}]`))
  return element(value, path)
}

const typedValue = (
  value: unknown,
  typeRef: string | undefined,
  lookup: ItemLookup,
  path: string,
  out: JsonProblem[],
  depth: number,
  feelType?: FeelType
): unknown => {
  if (value === undefined || value === null) return null
  if (isTypedForm(value)) return typedForm(value, path, out)
  const type = feelType ?? (typeRef === undefined ? undefined : (parseTypeText(localName(typeRef)) ?? {
    kind: "named" as const,
    name: localName(typeRef)
  }))
  return type === undefined ? untyped(value, path, out, depth) : byFeelType(value, type, lookup, path, out, depth)
}

/**
 * One JSON value as a FEEL value of the declared typeRef; problems (a string that is not the declared date, a
 * malformed typed form, nesting deeper than 100 levels) are added to `out` with the value's path.
 */
export const fromJsonTyped = (
  value: unknown,
  typeRef: string | undefined,
  lookup: ItemLookup,
  path: string,
  out: JsonProblem[]
): unknown => typedValue(value, typeRef, lookup, path, out, 0)

const typed = (type: string, value: string) => ({ [TYPE_MEMBER]: type, value })

/** A FEEL value as JSON that keeps its type where plain JSON would lose it (see the header). */
export const toTypedJson = (value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (value instanceof FeelNumber) {
    const n = value.toNumber()
    return Number.isFinite(n) && FeelNumber.fromNumber(n)?.equals(value) === true
      ? n
      : typed("number", value.toString())
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null
  if (typeof value === "string" || typeof value === "boolean") return value
  if (Array.isArray(value)) return value.map(toTypedJson)
  if (value instanceof FeelFunctionValue || typeof value === "function") return null
  if (isTemporal(value)) return typed(temporalKind(value), temporalText(value))
  if (value instanceof FeelRangeValue) {
    return typed(
      "range",
      value.format((x) => isTemporal(x) ? `@"${temporalText(x)}"` : (feelToString(x, true) ?? "null"))
    )
  }
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toTypedJson(v)]))
  }
  return null
}

/**
 * The caller's variables of an evaluation as FEEL values: each typed by the model's input data of that name, else
 * its decision of that name (a decision service's input decisions), else untyped.
 */
export const inputsFromJson = (
  model: DecisionModel,
  variables: Readonly<Record<string, unknown>>
): { readonly values: Record<string, unknown>; readonly problems: ReadonlyArray<JsonProblem> } => {
  const lookup = itemLookupOf(model)
  const problems: JsonProblem[] = []
  const values = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => {
      const typeRef = model.inputData.find((i) => i.name === name)?.typeRef ??
        model.decisions.find((d) => d.name === name)?.typeRef
      return [name, fromJsonTyped(value, typeRef, lookup, name, problems)]
    })
  )
  return { values, problems }
}

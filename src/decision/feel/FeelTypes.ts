/**
 * FEEL types (DMN 1.5 §10.3.2.9) for `instance of` and typed parameters: built-in names, `list<T>`,
 * `context<k: T>`, `range<T>` and `function<T, ...> -> R`, with the conformance check of §10.3.2.9.1.
 */
import { isFunctionValue } from "./FeelFunctionValue.ts"
import { isRangeValue } from "./FeelRange.ts"
import { isContext, kindOf } from "./FeelValues.ts"

export type FeelType =
  | { readonly kind: "named"; readonly name: string }
  | { readonly kind: "list"; readonly element: FeelType }
  | { readonly kind: "range"; readonly element: FeelType }
  | { readonly kind: "context"; readonly entries: ReadonlyArray<{ readonly name: string; readonly type: FeelType }> }
  | { readonly kind: "function"; readonly parameters: ReadonlyArray<FeelType>; readonly result: FeelType }

/** XML Schema and DMN 1.1 spellings of the built-in type names. */
const ALIASES: Readonly<Record<string, string>> = {
  dateTime: "date and time",
  dayTimeDuration: "days and time duration",
  yearMonthDuration: "years and months duration",
  decimal: "number",
  integer: "number",
  double: "number",
  int: "number",
  long: "number"
}

export const canonicalTypeName = (name: string): string => {
  const local = name.replace(/^(feel|FEEL|xsd|xs):/, "").replace(/\s+/g, " ").trim()
  return ALIASES[local] ?? local
}

const BUILTIN_NAMES = new Set([
  "Any",
  "Null",
  "number",
  "string",
  "boolean",
  "date",
  "time",
  "date and time",
  "days and time duration",
  "years and months duration",
  "list",
  "context",
  "range",
  "function"
])

export const isBuiltinTypeName = (name: string): boolean => BUILTIN_NAMES.has(canonicalTypeName(name))

/** Resolves a type name that is not built in (a model's item definition). */
export type TypeResolver = (name: string) => FeelType | undefined

/**
 * Whether `value` conforms to `type`; undefined when the type names something unknown. Null conforms to no type
 * but Null itself (`null instance of Any` is false).
 */
export const conformsTo = (value: unknown, type: FeelType, resolve?: TypeResolver): boolean | undefined => {
  switch (type.kind) {
    case "named": {
      const name = canonicalTypeName(type.name)
      if (name === "Null") return value === null
      if (name === "Any") return value !== null
      if (!BUILTIN_NAMES.has(name)) {
        const resolved = resolve?.(type.name)
        return resolved === undefined ? undefined : conformsTo(value, resolved, resolve)
      }
      if (value === null) return false
      return kindOf(value) === name
    }
    case "list": {
      if (!Array.isArray(value)) return false
      for (const item of value) {
        const c = item === null ? true : conformsTo(item, type.element, resolve)
        if (c !== true) return c
      }
      return true
    }
    case "range": {
      if (!isRangeValue(value)) return false
      const bounds = [value.start, value.end].filter((b) => b !== null)
      return bounds.every((b) => conformsTo(b, type.element, resolve) === true)
    }
    case "context": {
      if (!isContext(value)) return false
      for (const e of type.entries) {
        if (!Object.hasOwn(value, e.name)) return false
        const c = conformsTo(value[e.name], e.type, resolve)
        if (c !== true && value[e.name] !== null) return c
      }
      return true
    }
    case "function": {
      if (!isFunctionValue(value)) return false
      if (value.parameters.length !== type.parameters.length) return false
      return value.parameters.every((p, i) => {
        const t = type.parameters[i]
        return p.type === undefined || t === undefined || canonicalTypeName(p.type) === typeText(t)
      })
    }
  }
}

export const typeText = (type: FeelType): string => {
  switch (type.kind) {
    case "named":
      return canonicalTypeName(type.name)
    case "list":
      return `list<${typeText(type.element)}>`
    case "range":
      return `range<${typeText(type.element)}>`
    case "context":
      return `context<${type.entries.map((e) => `${e.name}: ${typeText(e.type)}`).join(", ")}>`
    case "function":
      return `function<${type.parameters.map(typeText).join(", ")}> -> ${typeText(type.result)}`
  }
}

/** Reads type text such as `list<context<name: string, age: number>>` or `function<number> -> boolean`. */
export const parseTypeText = (text: string): FeelType | undefined => {
  const tokens = text.match(/->|[<>,:]|[^<>,:\s-][^<>,:]*?(?=\s*(?:->|[<>,:]|$))/g)?.map((t) => t.trim()) ?? []
  let i = 0
  const peek = (): string | undefined => tokens[i]
  const expect = (t: string): boolean => (tokens[i] === t ? (i++, true) : false)
  const type = (): FeelType | undefined => {
    const name = tokens[i++]
    if (name === undefined || ["<", ">", ",", ":", "->"].includes(name)) return undefined
    if ((name === "list" || name === "range") && expect("<")) {
      const element = type()
      if (element === undefined || !expect(">")) return undefined
      return { kind: name, element }
    }
    if (name === "context" && expect("<")) {
      const entries: { name: string; type: FeelType }[] = []
      do {
        const key = tokens[i++]
        if (key === undefined || !expect(":")) return undefined
        const t = type()
        if (t === undefined) return undefined
        entries.push({ name: key, type: t })
      } while (expect(","))
      return expect(">") ? { kind: "context", entries } : undefined
    }
    if (name === "function" && expect("<")) {
      const parameters: FeelType[] = []
      if (peek() !== ">") {
        do {
          const t = type()
          if (t === undefined) return undefined
          parameters.push(t)
        } while (expect(","))
      }
      if (!expect(">") || !expect("->")) return undefined
      const result = type()
      return result === undefined ? undefined : { kind: "function", parameters, result }
    }
    return { kind: "named", name }
  }
  const t = type()
  return t !== undefined && i === tokens.length ? t : undefined
}

/**
 * The FEEL value space and its generic operations: kinds, equality (DMN 1.5 §10.3.2.2: values of different kinds are
 * not comparable, giving null; null equals only null), order, and the `string()` rendering.
 *
 * Values: null, boolean, string, FeelNumber, lists (arrays), contexts (plain objects), temporal values (FeelTemporal),
 * ranges (FeelRangeValue) and functions (FeelFunctionValue).
 */
import { chargeWork } from "./FeelBudget.ts"
import { FeelFunctionValue } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { isTemporal, temporalEquals, temporalKind, temporalOrder, temporalText } from "./FeelTemporal.ts"

export type FeelKind =
  | "null"
  | "boolean"
  | "string"
  | "number"
  | "list"
  | "context"
  | "range"
  | "function"
  | "date"
  | "time"
  | "date and time"
  | "years and months duration"
  | "days and time duration"

export const isContext = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype

export const kindOf = (v: unknown): FeelKind | undefined => {
  if (v === null || v === undefined) return "null"
  if (typeof v === "boolean") return "boolean"
  if (typeof v === "string") return "string"
  if (v instanceof FeelNumber) return "number"
  if (Array.isArray(v)) return "list"
  if (v instanceof FeelRangeValue) return "range"
  if (v instanceof FeelFunctionValue) return "function"
  if (isTemporal(v)) return temporalKind(v)
  if (isContext(v)) return "context"
  return undefined
}

/** FEEL `=`: true / false, or null when the operands are of different kinds. */
export const feelEquals = (a: unknown, b: unknown): boolean | null => {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null)
  if (a instanceof FeelNumber) return b instanceof FeelNumber ? a.equals(b) : null
  if (typeof a === "string" || typeof a === "boolean") return typeof b === typeof a ? a === b : null
  const ka = kindOf(a)
  const kb = kindOf(b)
  if (ka !== kb) return null
  switch (ka) {
    case "list": {
      const la = a as unknown[]
      const lb = b as unknown[]
      if (la.length !== lb.length) return false
      // element by element: work in proportion to the lists, charged to the budget
      chargeWork(la.length)
      for (let i = 0; i < la.length; i++) {
        const e = feelEquals(la[i], lb[i])
        if (e !== true) return e
      }
      return true
    }
    case "context": {
      const ca = a as Record<string, unknown>
      const cb = b as Record<string, unknown>
      const keys = Object.keys(ca)
      if (keys.length !== Object.keys(cb).length) return false
      chargeWork(keys.length)
      for (const k of keys) {
        if (!Object.hasOwn(cb, k)) return false
        const e = feelEquals(ca[k], cb[k])
        if (e !== true) return e
      }
      return true
    }
    case "range": {
      const ra = a as FeelRangeValue
      const rb = b as FeelRangeValue
      return (
        ra.operator === rb.operator &&
        ra.startIncluded === rb.startIncluded &&
        ra.endIncluded === rb.endIncluded &&
        feelEquals(ra.start, rb.start) === true &&
        feelEquals(ra.end, rb.end) === true
      )
    }
    case "function":
      return a === b
    case undefined:
      return null
    default:
      return isTemporal(a) && isTemporal(b) ? temporalEquals(a, b) : null
  }
}

/** The order of two values (-1, 0, 1), or null when they are not ordered (different kinds, lists, contexts, ...). */
export const feelCompare = (a: unknown, b: unknown): number | null => {
  if (a instanceof FeelNumber) return b instanceof FeelNumber ? a.compare(b) : null
  if (typeof a === "string") return typeof b === "string" ? (a < b ? -1 : a > b ? 1 : 0) : null
  if (isTemporal(a) && isTemporal(b)) return temporalOrder(a, b)
  return null
}

const quote = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, "\\\"")}"`

/**
 * FEEL `string(from)` (DMN 1.5 §10.3.4.1): strings as themselves; other values in their FEEL literal form
 * (nested strings quoted).
 */
export const feelToString = (v: unknown, nested = false): string | null => {
  if (v === null || v === undefined) return nested ? "null" : null
  if (typeof v === "string") return nested ? quote(v) : v
  if (typeof v === "boolean") return String(v)
  if (v instanceof FeelNumber) return v.toString()
  if (Array.isArray(v)) {
    chargeWork(v.length)
    return `[${v.map((x) => feelToString(x, true)).join(", ")}]`
  }
  if (v instanceof FeelRangeValue) return v.format((x) => feelToString(x, true) ?? "null")
  if (v instanceof FeelFunctionValue) return nested ? "function" : null
  if (isTemporal(v)) return temporalText(v)
  if (isContext(v)) {
    const entries = Object.entries(v)
    chargeWork(entries.length)
    return `{${entries.map(([k, x]) => `${k}: ${feelToString(x, true)}`).join(", ")}}`
  }
  return null
}

/** Whether the range holds the point `x`; null when they are not comparable. */
export const rangeIncludes = (r: FeelRangeValue, x: unknown): boolean | null => {
  if (x === null || x === undefined) return null
  if (r.start !== null) {
    const c = feelCompare(x, r.start)
    if (c === null) return null
    if (c < 0 || (c === 0 && !r.startIncluded)) return false
  }
  if (r.end !== null) {
    const c = feelCompare(x, r.end)
    if (c === null) return null
    if (c > 0 || (c === 0 && !r.endIncluded)) return false
  }
  return true
}

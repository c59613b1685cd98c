/**
 * String built-ins (DMN 1.5 §10.3.4.3) over Unicode code points (so "\uD83D\uDC0E" has length 1), plus the
 * `string` and `number` conversions of §10.3.4.1. Each charges the budget for the characters it goes over
 * (chargeChars), and `string join` for the items too.
 */
import { chargeChars, chargeWork, checkStringLength } from "./FeelBudget.ts"
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { xpathRegex, xpathReplacement } from "./FeelRegex.ts"
import { feelToString } from "./FeelValues.ts"

/** A string argument; a singleton list of a string counts as that string (DMN 1.5 §10.3.2.9.4). */
const str = (v: unknown): string | undefined =>
  typeof v === "string" ? v : Array.isArray(v) && v.length === 1 && typeof v[0] === "string" ? v[0] : undefined

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * A text by code points: without surrogates each UTF-16 unit is one, and the text is used as it is; otherwise it is
 * split into code points (an array as long as the text, charged as such).
 */
const byCodePoints = (
  text: string
): { readonly length: number; readonly slice: (from: number, to?: number) => string } => {
  chargeChars(text.length)
  if (!SURROGATE.test(text)) return { length: text.length, slice: (from, to) => text.slice(from, to) }
  chargeWork(text.length)
  const points = [...text]
  return { length: points.length, slice: (from, to) => points.slice(from, to).join("") }
}

const two = (a: string, b: string, f: (x: string, y: string) => unknown): FeelBuiltinFunction =>
  builtin(signature([a, b], ([x, y]) => {
    const s = str(x)
    const t = str(y)
    if (s === undefined || t === undefined) return null
    chargeChars(s.length + t.length)
    return f(s, t)
  }))

/**
 * substring(string, start position, length?): positions and lengths are whole characters; a fraction is dropped (the
 * kit's 1103 expects substring("foobar", 3, 3.8) to be "oba").
 */
const substring = ([s, start, length]: ReadonlyArray<unknown>): unknown => {
  const text = str(s)
  const from = start instanceof FeelNumber ? start.setScale(0, "DOWN").toSafeInteger() : undefined
  if (text === undefined || from === undefined || from === 0) return null
  const points = byCodePoints(text)
  const begin = from > 0 ? from - 1 : points.length + from
  if (begin < 0 || begin > points.length) {
    return begin < 0 && length !== null
      ? null
      : points.slice(Math.max(0, begin))
  }
  if (length === null) return points.slice(begin)
  const n = length instanceof FeelNumber ? length.setScale(0, "DOWN").toSafeInteger() : undefined
  if (n === undefined || n < 0) return null
  return points.slice(begin, begin + n)
}

/** number(from, grouping separator, decimal separator): separators are space, comma or period, and must differ. */
const toNumber = ([from, grouping, decimalSep]: ReadonlyArray<unknown>): unknown => {
  const text = str(from)
  if (text === undefined) return null
  chargeChars(text.length)
  if (grouping !== null && !(typeof grouping === "string" && [" ", ",", "."].includes(grouping))) return null
  if (decimalSep !== null && !(typeof decimalSep === "string" && [",", "."].includes(decimalSep))) return null
  if (grouping !== null && grouping === decimalSep) return null
  let t = text
  if (typeof grouping === "string") t = t.split(grouping).join("")
  if (typeof decimalSep === "string") t = t.split(decimalSep).join(".")
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t) ? FeelNumber.parse(t) : null
}

export const STRING_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  string: builtin(signature(["from"], ([v]) => {
    const s = feelToString(v)
    if (s !== null) chargeChars(s.length)
    return s
  })),
  number: builtin(signature(["from", "grouping separator?", "decimal separator?"], toNumber)),
  substring: builtin(signature(["string", "start position", "length?"], substring)),
  "string length": builtin(
    signature(["string"], ([s]) => {
      if (typeof s !== "string") return null
      return FeelNumber.fromInt(byCodePoints(s).length)
    })
  ),
  "upper case": builtin(signature(["string"], ([v]) => {
    const s = str(v)
    if (s === undefined) return null
    chargeChars(s.length)
    return s.toUpperCase()
  })),
  "lower case": builtin(signature(["string"], ([v]) => {
    const s = str(v)
    if (s === undefined) return null
    chargeChars(s.length)
    return s.toLowerCase()
  })),
  "substring before": two("string", "match", (s, m) => {
    const i = s.indexOf(m)
    return i < 0 ? "" : s.slice(0, i)
  }),
  "substring after": two("string", "match", (s, m) => {
    const i = s.indexOf(m)
    return i < 0 ? "" : s.slice(i + m.length)
  }),
  contains: two("string", "match", (s, m) => s.includes(m)),
  "starts with": two("string", "match", (s, m) => s.startsWith(m)),
  "ends with": two("string", "match", (s, m) => s.endsWith(m)),
  matches: builtin(signature(["input", "pattern", "flags?"], ([input, pattern, flags]) => {
    const s = str(input)
    const p = str(pattern)
    if (s === undefined || p === undefined || (flags !== null && typeof flags !== "string")) return null
    chargeChars(s.length + p.length)
    return xpathRegex(p, flags)?.test(s) ?? null
  })),
  replace: builtin(signature(["input", "pattern", "replacement", "flags?"], ([input, pattern, replacement, flags]) => {
    const s = str(input)
    const p = str(pattern)
    const r = str(replacement)
    if (s === undefined || p === undefined || r === undefined || (flags !== null && typeof flags !== "string")) {
      return null
    }
    chargeChars(s.length + p.length + r.length)
    const re = xpathRegex(p, flags)
    const jsReplacement = typeof flags === "string" && flags.includes("q")
      ? r.replace(/\$/g, "$$$$")
      : xpathReplacement(r)
    if (re === null || jsReplacement === null || re.test("")) return null
    return re.replaceAll(s, jsReplacement)
  })),
  split: builtin(signature(["string", "delimiter"], ([input, delimiter]) => {
    const s = str(input)
    const d = str(delimiter)
    if (s === undefined || d === undefined || d === "") return null
    chargeChars(s.length + d.length)
    const re = xpathRegex(d, null)
    return re === null ? null : re.split(s)
  })),
  "string join": builtin(signature(["list", "delimiter?"], ([value, delimiter]) => {
    const list = typeof value === "string" ? [value] : value
    if (!Array.isArray(list) || (delimiter !== null && typeof delimiter !== "string")) return null
    chargeWork(list.length)
    let length = 0
    let count = 0
    for (const x of list) {
      if (x === null) continue
      if (typeof x !== "string") return null
      length += x.length
      count += 1
    }
    const separator = delimiter ?? ""
    // Refused before it is made: a long delimiter between many items could make a string no engine can hold.
    length += separator.length * Math.max(0, count - 1)
    checkStringLength(length)
    chargeChars(length)
    return list.filter((x) => x !== null).join(separator)
  }))
}

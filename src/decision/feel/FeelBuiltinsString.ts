/**
 * String built-ins (DMN 1.5 §10.3.4.3) over Unicode code points (so "\uD83D\uDC0E" has length 1), plus the
 * `string` and `number` conversions of §10.3.4.1.
 */
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { xpathRegex, xpathReplacement } from "./FeelRegex.ts"
import { feelToString } from "./FeelValues.ts"

/** A string argument; a singleton list of a string counts as that string (DMN 1.5 §10.3.2.9.4). */
const str = (v: unknown): string | undefined =>
  typeof v === "string" ? v : Array.isArray(v) && v.length === 1 && typeof v[0] === "string" ? v[0] : undefined

const two = (a: string, b: string, f: (x: string, y: string) => unknown): FeelBuiltinFunction =>
  builtin(signature([a, b], ([x, y]) => {
    const s = str(x)
    const t = str(y)
    return s === undefined || t === undefined ? null : f(s, t)
  }))

/**
 * substring(string, start position, length?): positions and lengths are whole characters; a fraction is dropped (the
 * kit's 1103 expects substring("foobar", 3, 3.8) to be "oba").
 */
const substring = ([s, start, length]: ReadonlyArray<unknown>): unknown => {
  const text = str(s)
  const from = start instanceof FeelNumber ? start.setScale(0, "DOWN").toSafeInteger() : undefined
  if (text === undefined || from === undefined || from === 0) return null
  const points = [...text]
  const begin = from > 0 ? from - 1 : points.length + from
  if (begin < 0 || begin > points.length) {
    return begin < 0 && length !== null
      ? null
      : points.slice(Math.max(0, begin)).join("")
  }
  if (length === null) return points.slice(begin).join("")
  const n = length instanceof FeelNumber ? length.setScale(0, "DOWN").toSafeInteger() : undefined
  if (n === undefined || n < 0) return null
  return points.slice(begin, begin + n).join("")
}

/** number(from, grouping separator, decimal separator): separators are space, comma or period, and must differ. */
const toNumber = ([from, grouping, decimalSep]: ReadonlyArray<unknown>): unknown => {
  const text = str(from)
  if (text === undefined) return null
  if (grouping !== null && !(typeof grouping === "string" && [" ", ",", "."].includes(grouping))) return null
  if (decimalSep !== null && !(typeof decimalSep === "string" && [",", "."].includes(decimalSep))) return null
  if (grouping !== null && grouping === decimalSep) return null
  let t = text
  if (typeof grouping === "string") t = t.split(grouping).join("")
  if (typeof decimalSep === "string") t = t.split(decimalSep).join(".")
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t) ? FeelNumber.parse(t) : null
}

export const STRING_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  string: builtin(signature(["from"], ([v]) => feelToString(v))),
  number: builtin(signature(["from", "grouping separator?", "decimal separator?"], toNumber)),
  substring: builtin(signature(["string", "start position", "length?"], substring)),
  "string length": builtin(
    signature(["string"], ([s]) => (typeof s === "string" ? FeelNumber.fromInt([...s].length) : null))
  ),
  "upper case": builtin(signature(["string"], ([s]) => str(s)?.toUpperCase() ?? null)),
  "lower case": builtin(signature(["string"], ([s]) => str(s)?.toLowerCase() ?? null)),
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
    return xpathRegex(p, flags)?.test(s) ?? null
  })),
  replace: builtin(signature(["input", "pattern", "replacement", "flags?"], ([input, pattern, replacement, flags]) => {
    const s = str(input)
    const p = str(pattern)
    const r = str(replacement)
    if (s === undefined || p === undefined || r === undefined || (flags !== null && typeof flags !== "string")) {
      return null
    }
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
    const re = xpathRegex(d, null)
    return re === null ? null : re.split(s)
  })),
  "string join": builtin(signature(["list", "delimiter?"], ([value, delimiter]) => {
    const list = typeof value === "string" ? [value] : value
    if (!Array.isArray(list) || (delimiter !== null && typeof delimiter !== "string")) return null
    if (list.some((x) => x !== null && typeof x !== "string")) return null
    return list.filter((x) => x !== null).join(delimiter ?? "")
  }))
}

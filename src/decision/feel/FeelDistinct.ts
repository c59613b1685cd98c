/**
 * The distinct values of a list under FEEL `=` (DMN 1.5 §10.3.4.4 `distinct values` and `union`): the first of
 * each group of equal values, in the list's order — in time linear in the list, not quadratic.
 *
 * Most values have an exact key: text such that two values with keys are equal exactly when their keys are the same,
 * and a value with a key equals no value without one (null, booleans, strings, numbers — canonical decimals —,
 * dates, durations, and ranges, lists and contexts of such values). Those are looked up in a Set. Times and dates
 * and times have keys that are exact only among the local or among the zoned ones (whether a local and a zoned value
 * are equal is feelin's rule); functions, and ranges, lists or contexts holding any of these, have no key. Only
 * those are compared with FEEL `=`, and only with the values of their kind that could equal them. Every step of it
 * is charged to the budget (FeelBudget.ts).
 */
import { chargeChars, chargeWork } from "./FeelBudget.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { isTemporal, temporalIdentity } from "./FeelTemporal.ts"
import { feelEquals, isContext, kindOf } from "./FeelValues.ts"

/** Lists and contexts nested deeper than this are compared with `=` rather than keyed. */
const MAX_KEY_DEPTH = 32

/**
 * A value's key. `exact`: equal to another keyed value exactly when the keys are the same, and to no value without an
 * exact key; otherwise (times, dates and times) only among the values of its `group` (its kind, local or zoned).
 */
interface Identity {
  readonly key: string
  readonly exact: boolean
}

// Each kind's keys begin with their own tag: z null, t / f booleans, s strings, n numbers, T temporal values (then the
// kind, `@` when zoned, `|` and temporalIdentity's key), r ranges, l lists, c contexts.
const exact = (key: string): Identity => ({ key, exact: true })
const NULL_KEY = exact("z")
const TRUE_KEY = exact("t")
const FALSE_KEY = exact("f")

/** Parts joined so that no two different sequences give the same text: each is prefixed by its length. */
const joinParts = (tag: string, parts: ReadonlyArray<string>): string => {
  let out = tag
  for (const p of parts) out += `${p.length}:${p}`
  return out
}

/** A value's identity for hashing, or undefined when it has none (it is then compared with `=`). */
const identityOf = (v: unknown, depth: number): Identity | undefined => {
  if (v === null || v === undefined) return NULL_KEY
  if (typeof v === "boolean") return v ? TRUE_KEY : FALSE_KEY
  if (typeof v === "string") {
    chargeChars(v.length)
    return exact(`s${v}`)
  }
  // FeelNumber is canonical (no trailing zeros in the coefficient): equal numbers have equal fields (1 and 1.0 too).
  if (v instanceof FeelNumber) return exact(`n${v.coefficient}e${v.exponent}`)
  if (isTemporal(v)) {
    const t = temporalIdentity(v)
    if (t === undefined) return undefined
    const kind = kindOf(v)
    // A date, or a duration, is never zoned: its key is exact.
    const grouped = kind === "time" || kind === "date and time"
    return { key: `T${kind}${t.zoned ? "@" : ""}|${t.key}`, exact: !grouped }
  }
  if (depth >= MAX_KEY_DEPTH) return undefined
  if (v instanceof FeelRangeValue) {
    // `=` on ranges: the same kind of range, the same inclusions and equal ends
    const start = identityOf(v.start, depth + 1)
    const end = identityOf(v.end, depth + 1)
    if (start === undefined || !start.exact || end === undefined || !end.exact) return undefined
    const form = `${v.operator ?? ""}${v.startIncluded ? "[" : "("}${v.endIncluded ? "]" : ")"}`
    return exact(joinParts(`r${form}`, [start.key, end.key]))
  }
  if (Array.isArray(v)) {
    chargeWork(v.length)
    const parts: string[] = []
    for (const x of v) {
      const id = identityOf(x, depth + 1)
      if (id === undefined || !id.exact) return undefined
      parts.push(id.key)
    }
    return exact(joinParts("l", parts))
  }
  if (isContext(v)) {
    // `=` on contexts does not look at the order of the entries.
    const names = Object.keys(v).sort()
    chargeWork(names.length * (1 + Math.log2(names.length + 1)))
    const parts: string[] = []
    for (const name of names) {
      const id = identityOf(v[name], depth + 1)
      if (id === undefined || !id.exact) return undefined
      parts.push(name, id.key)
    }
    return exact(joinParts("c", parts))
  }
  return undefined
}

/** The group of values without an exact key that have no key at all. */
const UNKEYED = ""

const groupOf = (key: string): string => key.slice(0, key.indexOf("|"))

/** The distinct values of `list` under FEEL `=`: the first of each group of equal values, in order. */
export const distinctValues = (list: ReadonlyArray<unknown>): unknown[] => {
  const out: unknown[] = []
  const keys = new Set<string>()
  // The values kept that have no exact key, by kind and then group (UNKEYED for those without any key).
  const loose = new Map<string, Map<string, unknown[]>>()
  const equalsAny = (x: unknown, members: ReadonlyArray<unknown>): boolean => {
    for (const y of members) {
      chargeWork(1)
      if (feelEquals(x, y) === true) return true
    }
    return false
  }
  for (const x of list) {
    chargeWork(1)
    const kind = kindOf(x)
    // A value of no FEEL kind equals nothing, not even itself.
    if (kind === undefined) {
      out.push(x)
      continue
    }
    const id = identityOf(x, 0)
    if (id !== undefined && id.exact) {
      if (keys.has(id.key)) continue
      keys.add(id.key)
      out.push(x)
      continue
    }
    const group = id === undefined ? UNKEYED : groupOf(id.key)
    if (id !== undefined && keys.has(id.key)) continue
    let groups = loose.get(kind)
    if (groups === undefined) {
      groups = new Map()
      loose.set(kind, groups)
    }
    let duplicate = false
    for (const [g, members] of groups) {
      // Within its own group a keyed value equals exactly the values of the same key, looked up above.
      if ((g !== group || g === UNKEYED) && equalsAny(x, members)) {
        duplicate = true
        break
      }
    }
    if (duplicate) continue
    if (id !== undefined) keys.add(id.key)
    let members = groups.get(group)
    if (members === undefined) {
      members = []
      groups.set(group, members)
    }
    members.push(x)
    out.push(x)
  }
  return out
}

/**
 * List built-ins (DMN 1.5 §10.3.4.4) and sort (§10.3.4.9). Aggregates (sum, mean, ...) are exact on decimals;
 * the ones that take a list also take the items as separate arguments (`max(1, 2, 3)`).
 *
 * Each charges the budget for the elements it goes over and the comparisons it makes (chargeWork), not only for the
 * call and the list it makes: a call inside a loop over a large list is work in proportion to that list.
 */
import { chargeWork } from "./FeelBudget.ts"
import { distinctValues } from "./FeelDistinct.ts"
import { builtin, type FeelBuiltinFunction, FeelFunctionValue, signature } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { feelCompare, feelEquals } from "./FeelValues.ts"

const int = (v: unknown): number | undefined => (v instanceof FeelNumber && v.isInteger ? v.toSafeInteger() : undefined)

/** `f(list)` or `f(item1, item2, ...)`: both give the items. */
const aggregate = (f: (items: unknown[]) => unknown): FeelBuiltinFunction =>
  builtin(
    signature(["list"], ([list]) => (Array.isArray(list) ? f(list) : list === null ? null : f([list]))),
    signature(["...c"], ([items]) => (Array.isArray(items) ? f(items) : null))
  )

/** The items when all are numbers; the aggregate then goes over them once (charged here). */
const numbers = (items: unknown[]): FeelNumber[] | undefined => {
  chargeWork(items.length)
  return items.every((x) => x instanceof FeelNumber) ? (items as FeelNumber[]) : undefined
}

const sum = (xs: FeelNumber[]): FeelNumber => xs.reduce((a, b) => a.add(b), FeelNumber.fromInt(0))

const extreme = (sign: number) => (items: unknown[]): unknown => {
  if (items.length === 0) return null
  chargeWork(items.length)
  let best = items[0]
  for (const x of items.slice(1)) {
    const c = feelCompare(x, best)
    if (c === null) return null
    if (c * sign > 0) best = x
  }
  return items.length === 1 && feelCompare(best, best) === null ? null : best
}

/** Sorts a copy; every comparison is charged. */
const sortedBy = <A>(list: ReadonlyArray<A>, compare: (a: A, b: A) => number): A[] =>
  [...list].sort((a, b) => {
    chargeWork(1)
    return compare(a, b)
  })

const sortedNumbers = (xs: FeelNumber[]): FeelNumber[] => sortedBy(xs, (a, b) => a.compare(b))

const contains = (list: ReadonlyArray<unknown>, x: unknown): boolean => {
  for (let i = 0; i < list.length; i++) {
    if (feelEquals(x, list[i]) === true) {
      chargeWork(i + 1)
      return true
    }
  }
  chargeWork(list.length)
  return false
}

/** A 1-based position (negative counts from the end) as a 0-based index; undefined when out of range. */
const index = (list: ReadonlyArray<unknown>, position: unknown): number | undefined => {
  const p = int(position)
  if (p === undefined || p === 0 || Math.abs(p) > list.length) return undefined
  return p > 0 ? p - 1 : list.length + p
}

/** The items of the list and of the lists in it, however deep, in order: one pass, without recursion. */
const flatten = (list: ReadonlyArray<unknown>): unknown[] => {
  const out: unknown[] = []
  const stack: Array<{ readonly items: ReadonlyArray<unknown>; next: number }> = [{ items: list, next: 0 }]
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { readonly items: ReadonlyArray<unknown>; next: number }
    if (top.next >= top.items.length) {
      stack.pop()
      continue
    }
    const x = top.items[top.next++]
    chargeWork(1)
    if (Array.isArray(x)) stack.push({ items: x, next: 0 })
    else out.push(x)
  }
  return out
}

/** A function of a list; DMN 1.5 §10.3.2.9.4: a single non-list value is taken as a singleton list. */
const listFn = (names: string[], f: (list: unknown[], ...rest: unknown[]) => unknown): FeelBuiltinFunction =>
  builtin(
    signature(names, ([list, ...rest]) => (list === null ? null : f(Array.isArray(list) ? list : [list], ...rest)))
  )

export const LIST_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  "list contains": listFn(["list", "element"], (list, x) => contains(list, x)),
  count: listFn(["list"], (list) => FeelNumber.fromInt(list.length)),
  min: aggregate(extreme(-1)),
  max: aggregate(extreme(1)),
  sum: aggregate((items) => {
    const xs = numbers(items)
    return xs === undefined || xs.length === 0 ? null : sum(xs)
  }),
  product: aggregate((items) => {
    const xs = numbers(items)
    return xs === undefined || xs.length === 0 ? null : xs.reduce((a, b) => a.multiply(b))
  }),
  mean: aggregate((items) => {
    const xs = numbers(items)
    return xs === undefined || xs.length === 0 ? null : sum(xs).divide(FeelNumber.fromInt(xs.length))
  }),
  median: aggregate((items) => {
    const xs = numbers(items)
    if (xs === undefined || xs.length === 0) return null
    const s = sortedNumbers(xs)
    const mid = Math.floor(s.length / 2)
    const a = s[mid] as FeelNumber
    return s.length % 2 === 1 ? a : (s[mid - 1] as FeelNumber).add(a).divide(FeelNumber.fromInt(2))
  }),
  stddev: aggregate((items) => {
    const xs = numbers(items)
    if (xs === undefined || xs.length < 2) return null
    chargeWork(xs.length)
    const n = FeelNumber.fromInt(xs.length)
    const mean = sum(xs).divide(n) as FeelNumber
    const squares = sum(xs.map((x) => x.subtract(mean).multiply(x.subtract(mean))))
    return squares.divide(FeelNumber.fromInt(xs.length - 1))?.sqrt() ?? null
  }),
  mode: aggregate((items) => {
    const xs = numbers(items)
    if (xs === undefined) return null
    // Numbers are canonical: equal ones have the same coefficient and exponent.
    const counts = new Map<string, { value: FeelNumber; n: number }>()
    let top = 0
    for (const x of xs) {
      const key = `${x.coefficient}e${x.exponent}`
      const entry = counts.get(key)
      const n = entry === undefined ? 1 : entry.n + 1
      if (entry === undefined) counts.set(key, { value: x, n })
      else entry.n = n
      if (n > top) top = n
    }
    const modes: FeelNumber[] = []
    for (const c of counts.values()) if (c.n === top) modes.push(c.value)
    return sortedNumbers(modes)
  }),
  all: aggregate((items) => {
    chargeWork(items.length)
    if (items.some((x) => x === false)) return false
    return items.every((x) => x === true) ? true : null
  }),
  any: aggregate((items) => {
    chargeWork(items.length)
    if (items.some((x) => x === true)) return true
    return items.every((x) => x === false) ? false : null
  }),
  sublist: listFn(["list", "start position", "length?"], (list, start, length) => {
    const from = index(list, start)
    if (from === undefined) return null
    if (length === null) return list.slice(from)
    const n = int(length)
    if (n === undefined || n < 0 || from + n > list.length) return null
    return list.slice(from, from + n)
  }),
  append: builtin(
    signature(
      ["list", "...items"],
      ([list, items]) => (Array.isArray(list) && Array.isArray(items) ? [...list, ...items] : null)
    )
  ),
  concatenate: builtin(
    signature(["...lists"], ([lists]) =>
      Array.isArray(lists) && lists.every((l) => Array.isArray(l))
        ? (lists as unknown[][]).flat(1)
        : null)
  ),
  "insert before": listFn(["list", "position", "newItem"], (list, position, item) => {
    const p = int(position)
    if (p === undefined || p === 0 || Math.abs(p) > list.length) return null
    const i = p > 0 ? p - 1 : list.length + p
    return [...list.slice(0, i), item, ...list.slice(i)]
  }),
  remove: listFn(["list", "position"], (list, position) => {
    const i = index(list, position)
    return i === undefined ? null : [...list.slice(0, i), ...list.slice(i + 1)]
  }),
  reverse: listFn(["list"], (list) => [...list].reverse()),
  "index of": listFn(["list", "match"], (list, match) => {
    chargeWork(list.length)
    const out: FeelNumber[] = []
    for (let i = 0; i < list.length; i++) if (feelEquals(list[i], match) === true) out.push(FeelNumber.fromInt(i + 1))
    return out
  }),
  union: builtin(
    signature(["...lists"], ([lists]) =>
      Array.isArray(lists) && lists.every((l) => Array.isArray(l))
        ? distinctValues((lists as unknown[][]).flat(1))
        : null)
  ),
  "distinct values": listFn(["list"], (list) => distinctValues(list)),
  flatten: listFn(["list"], (list) => flatten(list)),
  "list replace": builtin(
    ...["position", "match"].map((second) =>
      signature(["list", second, "newItem"], ([value, position, item]) => {
        if (value === null) return null
        const list = Array.isArray(value) ? value : [value]
        if (position instanceof FeelFunctionValue) {
          if (position.parameters.length !== 2) return null
          const out: unknown[] = []
          for (const x of list) {
            const hit = position.invoke([x, item])
            if (typeof hit !== "boolean") return null
            out.push(hit ? item : x)
          }
          return out
        }
        const i = index(list, position instanceof FeelNumber ? position.setScale(0, "DOWN") : position)
        return i === undefined ? null : list.map((x, k) => (k === i ? item : x))
      })
    )
  ),
  sort: listFn(["list", "precedes?"], (list, precedes) => {
    if (precedes === null) {
      let failed = false
      const out = sortedBy(list, (a, b) => {
        const c = feelCompare(a, b)
        if (c === null) failed = true
        return c ?? 0
      })
      return failed && list.length > 1 ? null : out
    }
    if (!(precedes instanceof FeelFunctionValue)) return null
    let failed = false
    const out = [...list].sort((a, b) => {
      const ab = precedes.invoke([a, b])
      const ba = precedes.invoke([b, a])
      if (typeof ab !== "boolean" || typeof ba !== "boolean") failed = true
      return ab === true ? -1 : ba === true ? 1 : 0
    })
    return failed ? null : out
  })
}

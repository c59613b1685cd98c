/**
 * Range built-ins (DMN 1.5 §10.3.4.7): before, after, meets, met by, overlaps, overlaps before/after, finishes,
 * finished by, includes, during, starts, started by, coincides — over points and ranges (open ends are infinite).
 */
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { feelCompare } from "./FeelValues.ts"

class Incomparable {}

const NEG = Symbol("-inf")
const POS = Symbol("+inf")

/** Order of two bounds or points, where NEG / POS stand for open range ends. */
const cmp = (a: unknown, b: unknown): number => {
  if (a === b && (a === NEG || a === POS)) return 0
  if (a === NEG || b === POS) return -1
  if (a === POS || b === NEG) return 1
  const c = feelCompare(a, b)
  if (c === null) throw new Incomparable()
  return c
}

interface R {
  readonly s: unknown
  readonly e: unknown
  readonly si: boolean
  readonly ei: boolean
}

const asR = (r: FeelRangeValue): R => ({ s: r.start ?? NEG, e: r.end ?? POS, si: r.startIncluded, ei: r.endIncluded })
const point = (p: unknown): R => ({ s: p, e: p, si: true, ei: true })

type Relation = (a: R, b: R) => boolean

/** A relation defined on ranges; points are ranges of one included point. */
const relation = (names: ReadonlyArray<[string, string]>, f: Relation): FeelBuiltinFunction =>
  builtin(
    ...names.map((pair) =>
      signature(pair, ([a, b]) => {
        if (a === null || b === null || a === undefined || b === undefined) return null
        try {
          return f(a instanceof FeelRangeValue ? asR(a) : point(a), b instanceof FeelRangeValue ? asR(b) : point(b))
        } catch (error) {
          if (error instanceof Incomparable) return null
          throw error
        }
      })
    )
  )

const eq = (a: unknown, b: unknown): boolean => cmp(a, b) === 0

const POINTS_AND_RANGES: ReadonlyArray<[string, string]> = [["point1", "point2"], ["point", "range"], [
  "range",
  "point"
], ["range1", "range2"]]
const RANGES: ReadonlyArray<[string, string]> = [["range1", "range2"]]
const POINT_RANGE: ReadonlyArray<[string, string]> = [["point", "range"], ["range1", "range2"]]
const RANGE_POINT: ReadonlyArray<[string, string]> = [["range", "point"], ["range1", "range2"]]

const before: Relation = (a, b) => cmp(a.e, b.s) < 0 || (eq(a.e, b.s) && (!a.ei || !b.si))
const includes: Relation = (a, b) =>
  (cmp(a.s, b.s) < 0 || (eq(a.s, b.s) && (a.si || !b.si))) && (cmp(a.e, b.e) > 0 || (eq(a.e, b.e) && (a.ei || !b.ei)))

export const RANGE_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  before: relation(POINTS_AND_RANGES, before),
  after: relation(POINTS_AND_RANGES, (a, b) => before(b, a)),
  meets: relation(RANGES, (a, b) => a.ei && b.si && eq(a.e, b.s)),
  "met by": relation(RANGES, (a, b) => a.si && b.ei && eq(a.s, b.e)),
  overlaps: relation(
    RANGES,
    (a, b) =>
      (cmp(a.e, b.s) > 0 || (eq(a.e, b.s) && a.ei && b.si)) && (cmp(a.s, b.e) < 0 || (eq(a.s, b.e) && a.si && b.ei))
  ),
  "overlaps before": relation(RANGES, (a, b) =>
    (cmp(a.s, b.s) < 0 || (eq(a.s, b.s) && a.si && !b.si)) &&
    (cmp(a.e, b.s) > 0 || (eq(a.e, b.s) && a.ei && b.si)) &&
    (cmp(a.e, b.e) < 0 || (eq(a.e, b.e) && (!a.ei || b.ei)))),
  "overlaps after": relation(RANGES, (a, b) =>
    (cmp(b.s, a.s) < 0 || (eq(b.s, a.s) && b.si && !a.si)) &&
    (cmp(b.e, a.s) > 0 || (eq(b.e, a.s) && b.ei && a.si)) &&
    (cmp(b.e, a.e) < 0 || (eq(b.e, a.e) && (!b.ei || a.ei)))),
  finishes: relation(POINT_RANGE, (a, b) =>
    a.s === a.e && a.si && a.ei && a.s !== NEG
      ? b.ei && eq(b.e, a.e)
      : a.ei === b.ei && eq(a.e, b.e) && (cmp(a.s, b.s) > 0 || (eq(a.s, b.s) && (!a.si || b.si)))),
  "finished by": relation(RANGE_POINT, (a, b) =>
    b.s === b.e && b.si && b.ei && b.s !== NEG
      ? a.ei && eq(a.e, b.e)
      : a.ei === b.ei && eq(a.e, b.e) && (cmp(a.s, b.s) < 0 || (eq(a.s, b.s) && (a.si || !b.si)))),
  includes: relation(RANGE_POINT, includes),
  during: relation(POINT_RANGE, (a, b) => includes(b, a)),
  starts: relation(POINT_RANGE, (a, b) =>
    a.s === a.e && a.si && a.ei && a.s !== NEG
      ? b.si && eq(b.s, a.s)
      : a.si === b.si && eq(a.s, b.s) && (cmp(a.e, b.e) < 0 || (eq(a.e, b.e) && (!a.ei || b.ei)))),
  "started by": relation(RANGE_POINT, (a, b) =>
    b.s === b.e && b.si && b.ei && b.s !== NEG
      ? a.si && eq(a.s, b.s)
      : a.si === b.si && eq(a.s, b.s) && (cmp(b.e, a.e) < 0 || (eq(b.e, a.e) && (!b.ei || a.ei)))),
  coincides: relation(
    [["point1", "point2"], ["range1", "range2"]],
    (a, b) => eq(a.s, b.s) && eq(a.e, b.e) && a.si === b.si && a.ei === b.ei
  )
}

/**
 * FEEL ranges (DMN 1.5 §10.3.2.7): an interval of ordered values; a missing bound (from `< 10` or `range("[1..")`)
 * is an open end, which is never included.
 */
export class FeelRangeValue {
  readonly start: unknown
  readonly end: unknown
  readonly startIncluded: boolean
  readonly endIncluded: boolean
  /** "=" for the range of a unary `= x` test: equal only to another such range, not to the interval [x..x] (TCK 0068). */
  readonly operator: "=" | null

  constructor(start: unknown, end: unknown, startIncluded: boolean, endIncluded: boolean, operator: "=" | null = null) {
    this.operator = operator
    this.start = start
    this.end = end
    this.startIncluded = start === null ? false : startIncluded
    this.endIncluded = end === null ? false : endIncluded
  }

  /** FEEL's rendering of a range literal, e.g. `[1..10)`; open ends render as null. */
  format(formatPoint: (v: unknown) => string): string {
    return `${this.startIncluded ? "[" : "("}${formatPoint(this.start)}..${formatPoint(this.end)}${
      this.endIncluded ? "]" : ")"
    }`
  }
}

export const isRangeValue = (v: unknown): v is FeelRangeValue => v instanceof FeelRangeValue

/**
 * A unary comparison as a range (DMN 1.5 §10.3.2.7): `< x` and `<= x` have no start, `> x` and `>= x` no end, and
 * `= x` is the one-point range [x..x]; any other operator (`!=`) is not a range.
 */
export const unaryRange = (op: string, x: unknown): FeelRangeValue | null => {
  switch (op) {
    case "<":
      return new FeelRangeValue(null, x, false, false)
    case "<=":
      return new FeelRangeValue(null, x, false, true)
    case ">":
      return new FeelRangeValue(x, null, false, false)
    case ">=":
      return new FeelRangeValue(x, null, true, false)
    case "=":
      return new FeelRangeValue(x, x, true, true, "=")
    default:
      return null
  }
}

/**
 * FEEL ranges (DMN 1.5 §10.3.2.7): an interval of ordered values; a missing bound (from `< 10` or `range("[1..")`)
 * is an open end, which is never included.
 */
export class FeelRangeValue {
  readonly start: unknown
  readonly end: unknown
  readonly startIncluded: boolean
  readonly endIncluded: boolean

  constructor(start: unknown, end: unknown, startIncluded: boolean, endIncluded: boolean) {
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

/**
 * The kit's expected temporal values, read from the XML text as the kit writes it, without the engine's value
 * constructors (a constructor that gives null for a value it cannot hold would turn an expected value into null and
 * make a null result pass). An expected date, time, date and time or duration is kept as its text; an actual value
 * matches when it is of the same FEEL kind and its text means the same:
 *  - dates, times and date-times field by field (year, month, day, hour, minute, second with its fraction, offset or
 *    zone), `Z` being `+00:00` and trailing zeros of the fraction not counting;
 *  - durations by kind and amount: years and months as a number of months, days and time as a number of seconds.
 * An actual value is the engine's (in-process) or the kind and text a client received (ReportedTemporal, over HTTP).
 */
import { FeelNumber } from "../feel/FeelNumber.ts"
import { isTemporal, temporalKind, temporalText } from "../feel/FeelTemporal.ts"

export type ExpectedTemporalType = "date" | "time" | "dateTime" | "duration"

/** A temporal value as its kind and its text, unread: the kit's expected one, or one a client received. */
class TemporalText<Kind extends string> {
  readonly kind: Kind
  readonly text: string
  constructor(kind: Kind, text: string) {
    this.kind = kind
    this.text = text
  }
}

/** The kit's expected value: its kind is the XSD type the kit names. */
export class ExpectedTemporal extends TemporalText<ExpectedTemporalType> {
  toJSON(): string {
    return this.text
  }
}

/**
 * A temporal result as a client receives it over HTTP (the typed JSON form: its FEEL kind and text), compared with
 * the kit's text without being read back by the engine.
 */
export class ReportedTemporal extends TemporalText<string> {}

const DATE = /^(-?\d{4,})-(\d\d)-(\d\d)$/
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d(?::\d\d)?|@[A-Za-z][\w/+-]*)?$/
const DURATION = /^(-?)P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?)?$/

const canonicalDate = (text: string): string | null => {
  const m = DATE.exec(text)
  if (m === null) return null
  return `${BigInt(m[1]!)}-${Number(m[2])}-${Number(m[3])}`
}

const canonicalTime = (text: string): string | null => {
  const m = TIME.exec(text)
  if (m === null) return null
  const fraction = (m[4] ?? "").replace(/0+$/, "")
  const zone = m[5] === undefined ? "" : m[5] === "Z" ? "+00:00" : m[5]
  return `${Number(m[1])}:${Number(m[2])}:${Number(m[3])}${fraction === "" ? "" : `.${fraction}`}${zone}`
}

const canonicalDateTime = (text: string): string | null => {
  const t = text.indexOf("T")
  if (t < 0) return null
  const date = canonicalDate(text.slice(0, t))
  const time = canonicalTime(text.slice(t + 1))
  return date === null || time === null ? null : `${date}T${time}`
}

const canonicalDuration = (text: string): string | null => {
  const m = DURATION.exec(text)
  if (m === null || text.endsWith("P") || text.endsWith("T")) return null
  const [, sign, y, mo, d, h, mi, s] = m
  const yearsMonths = y !== undefined || mo !== undefined
  const daysTime = d !== undefined || h !== undefined || mi !== undefined || s !== undefined
  if (yearsMonths && daysTime) return null
  const negative = sign === "-"
  if (yearsMonths) {
    const months = BigInt(y ?? "0") * 12n + BigInt(mo ?? "0")
    return `months ${negative && months !== 0n ? -months : months}`
  }
  const whole = ((BigInt(d ?? "0") * 24n + BigInt(h ?? "0")) * 60n + BigInt(mi ?? "0")) * 60n
  const seconds = FeelNumber.fromInt(whole).add(FeelNumber.parse(s ?? "0") ?? FeelNumber.fromInt(0))
  return `seconds ${(negative ? seconds.negate() : seconds).toString()}`
}

const canonical = (type: ExpectedTemporalType, text: string): string | null => {
  switch (type) {
    case "date":
      return canonicalDate(text)
    case "time":
      return canonicalTime(text)
    case "dateTime":
      return canonicalDateTime(text)
    case "duration":
      return canonicalDuration(text)
  }
}

const KINDS: Readonly<Record<ExpectedTemporalType, ReadonlyArray<string>>> = {
  date: ["date"],
  time: ["time"],
  dateTime: ["date and time"],
  duration: ["years and months duration", "days and time duration"]
}

/** Whether `actual` is a FEEL value of the expected kind whose text means what the kit's text says. */
export const matchesExpectedTemporal = (actual: unknown, expected: ExpectedTemporal): boolean => {
  const reported = actual instanceof ReportedTemporal
    ? actual
    : isTemporal(actual)
    ? new ReportedTemporal(temporalKind(actual), temporalText(actual))
    : undefined
  if (reported === undefined || !KINDS[expected.kind].includes(reported.kind)) return false
  const want = canonical(expected.kind, expected.text.trim())
  return want !== null && want === canonical(expected.kind, reported.text)
}

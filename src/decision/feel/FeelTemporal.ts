/**
 * Dates, times, date-times and durations. Their values and calendar arithmetic are feelin's (FeelDate, FeelTime,
 * FeelDateTime, FeelDuration, built on Temporal); this module is the one bridge to it: numbers cross as JS numbers,
 * and operations run as tiny feelin expressions over the operands. Years Temporal cannot hold (up to ±999,999,999)
 * cross this bridge moved by whole 400-year cycles (FeelTemporalFar.ts).
 */
import * as feelin from "feelin"
import { chargeChars, chargeSteps } from "./FeelBudget.ts"
import { FeelNumber } from "./FeelNumber.ts"
import {
  CYCLE_MILLIS,
  cyclesOf,
  cyclesOfYear,
  FarDateTime,
  farText,
  fromWindow,
  largeDaysTime,
  largeYearsMonths,
  MAX_YEAR,
  sharedCycles,
  toWindow
} from "./FeelTemporalFar.ts"
import { dateTimeText, durationText, timeText } from "./FeelTemporalText.ts"

export type TemporalValue = feelin.FeelDate | feelin.FeelTime | feelin.FeelDateTime | feelin.FeelDuration

export const isTemporal = (v: unknown): v is TemporalValue =>
  v instanceof feelin.FeelDate || v instanceof feelin.FeelTime || v instanceof feelin.FeelDateTime ||
  v instanceof feelin.FeelDuration

export type TemporalKind = "date" | "time" | "date and time" | "years and months duration" | "days and time duration"

export const temporalKind = (v: TemporalValue): TemporalKind =>
  v instanceof feelin.FeelDate
    ? "date"
    : v instanceof feelin.FeelTime
    ? "time"
    : v instanceof feelin.FeelDateTime
    ? "date and time"
    : v.yearsMonths
    ? "years and months duration"
    : "days and time duration"

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype

/** Our values as feelin's: decimals become JS numbers, deeply. */
export const toFeelin = (v: unknown): unknown => {
  if (v instanceof FeelNumber) return v.toNumber()
  if (Array.isArray(v)) return v.map(toFeelin)
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toFeelin(x)]))
  return v
}

/** feelin's values as ours: JS numbers become decimals, deeply; anything feelin-specific that is not temporal is null. */
export const fromFeelin = (v: unknown): unknown => {
  if (v === undefined || v === null) return null
  if (typeof v === "number") return FeelNumber.fromNumber(v)
  if (Array.isArray(v)) return v.map(fromFeelin)
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromFeelin(x)]))
  if (typeof v === "string" || typeof v === "boolean" || isTemporal(v)) return v
  return null
}

/** Runs `expression` in feelin over the given operands; null on any failure. */
export const viaFeelin = (expression: string, operands: Readonly<Record<string, unknown>>): unknown => {
  // an evaluation of its own (parsed, then run): a step of the budget, outside the catch below
  chargeSteps()
  const cycles = sharedCycles(Object.values(operands))
  if (cycles === undefined) return null
  try {
    const vars: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(operands)) vars[k] = toFeelin(cycles === 0 ? v : toWindow(v))
    return fromWindow(fromFeelin(feelin.evaluate(expression, vars).value), cycles)
  } catch {
    return null
  }
}

const builtinCache = new Map<string, ((...args: unknown[]) => unknown) | null>()

/** feelin's built-in `name` as a function value; multi-word names cannot be read as bare names, so those are not. */
const feelinFunction = (name: string): ((...args: unknown[]) => unknown) | null => {
  let fn = builtinCache.get(name)
  if (fn === undefined) {
    const v = /^\w+$/.test(name) ? feelin.evaluate(name, {}).value : null
    fn = typeof v === "function" ? (v as (...a: unknown[]) => unknown) : null
    builtinCache.set(name, fn)
  }
  return fn
}

/**
 * XML Schema years such as -2017 or 99999 in the ISO 8601 expanded form Temporal reads (-002017, +099999); years
 * beyond six digits stay as they are (and are refused).
 */
const expandYear = (text: string): string => {
  const m = /^(-?)(\d{4,6})(?=-\d\d-\d\d)/.exec(text)
  if (m === null) return text
  const sign = m[1] ?? ""
  const digits = m[2] ?? ""
  // Four-digit years need no change; longer ones must not start with 0 (XML Schema).
  if ((sign === "" && digits.length === 4) || (digits.length > 4 && digits.startsWith("0"))) return text
  return `${sign === "-" ? "-" : "+"}${digits.padStart(6, "0")}${text.slice(m[0].length)}`
}

/**
 * A date or date and time text with a negative year: feelin's parser refuses those, its date(year, month, day)
 * constructor does not, so the value is built from its parts.
 */
const negativeYear = (name: string, m: RegExpExecArray): unknown => {
  const [, year, month, day, time] = m
  if ((year?.length ?? 0) > 4 && year?.startsWith("0")) return null
  const date = callFeelinBuiltin("date", [-Number(year), Number(month), Number(day)].map((n) => FeelNumber.fromInt(n)))
  if (name === "date") return time === undefined ? date : null
  if (time === undefined || date === null) return null
  const t = callFeelinBuiltin("time", [time])
  return t === null ? null : callFeelinBuiltin("date and time", [date, t])
}

/** A temporal value's FEEL text, with years in XML Schema form again (99999, -2017). */
export const temporalText = (v: TemporalValue): string =>
  String(v).replace(/^([+-])0*(\d{4,})/, (_, sign: string, digits: string) => (sign === "-" ? "-" : "") + digits)

const YEARS_MONTHS = /^(-?)P(?=\d)(?:(\d+)Y)?(?:(\d+)M)?$/
const DAYS_TIME = /^(-?)P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d{1,9}))?S)?)?$/

/**
 * Built-in calls that involve years Temporal cannot hold (FeelTemporalFar.ts): date and date-time texts and date()
 * components of far years, years-and-months durations beyond ±200,000 years, and any call with a far date or
 * date-time argument. undefined for every other call.
 */
const farArguments = (name: string, given: ReadonlyArray<unknown>): unknown => {
  const [first, second, third] = given
  if ((name === "date" || name === "date and time") && typeof first === "string" && given.length === 1) {
    const far = farText(first)
    if (far === undefined) return undefined
    return far === null ? null : fromWindow(callFeelinBuiltin(name, [far.text]), far.cycles)
  }
  if (name === "duration" && typeof first === "string" && given.length === 1) {
    const m = YEARS_MONTHS.exec(first)
    if (m === null) {
      const t = DAYS_TIME.exec(first)
      if (t === null || first.endsWith("P") || first.endsWith("T")) return undefined
      const [, sign, d, h, mi, sec, fraction] = t
      const seconds = ((BigInt(d ?? "0") * 24n + BigInt(h ?? "0")) * 60n + BigInt(mi ?? "0")) * 60n + BigInt(sec ?? "0")
      const nanos = seconds * 1_000_000_000n + BigInt((fraction ?? "").padEnd(9, "0"))
      return largeDaysTime(sign === "-" ? -nanos : nanos)
    }
    const months = BigInt(m[2] ?? "0") * 12n + BigInt(m[3] ?? "0")
    return largeYearsMonths(m[1] === "-" ? -months : months)
  }
  if (name === "date" && given.length === 3 && first instanceof FeelNumber) {
    const year = first.toSafeInteger()
    if (year === undefined || Math.abs(year) > MAX_YEAR) return first.isInteger ? null : undefined
    const cycles = cyclesOfYear(year)
    if (cycles === 0) return undefined
    return fromWindow(callFeelinBuiltin(name, [FeelNumber.fromInt(year - cycles * 400), second, third]), cycles)
  }
  const cycles = sharedCycles(given)
  if (cycles === undefined) return null
  if (cycles === 0) return undefined
  return fromWindow(callFeelinBuiltin(name, given.map(toWindow)), cycles)
}

/** feelin's own built-in function `name`, called with positional arguments; null on any failure. */
export const callFeelinBuiltin = (name: string, given: ReadonlyArray<unknown>): unknown => {
  const first = given[0]
  const far = farArguments(name, given)
  if (far !== undefined) return far
  if ((name === "date" || name === "date and time") && typeof first === "string" && given.length === 1) {
    const bc = /^-(\d{4,6})-(\d\d)-(\d\d)(?:T(.+))?$/.exec(first)
    if (bc !== null) return negativeYear(name, bc)
  }
  const args = (name === "date" || name === "date and time") && typeof first === "string"
    ? [expandYear(first), ...given.slice(1)]
    : given
  const fn = feelinFunction(name)
  if (fn === null) {
    return viaFeelin(
      `${name}(${args.map((_, i) => `a${i}`).join(", ")})`,
      Object.fromEntries(args.map((a, i) => [`a${i}`, a]))
    )
  }
  try {
    return fromFeelin(fn(...args.map(toFeelin)))
  } catch {
    return null
  }
}

const OFFSET_ZONE = /^(?:UTC|Z|[+-]\d\d:\d\d)$/

const DATE_PROPS = ["year", "month", "day", "weekday"]
const TIME_PROPS = ["hour", "minute", "second", "time offset", "timezone"]
const YEARS_MONTHS_PROPS = ["years", "months"]
const DAYS_TIME_PROPS = ["days", "hours", "minutes", "seconds"]

/**
 * The FEEL properties of temporal values (DMN 1.5 table 65), e.g. `d.year`, `t.time offset`. A local time has no
 * offset or timezone; `timezone` is the zone id, so a time with a bare offset has none.
 */
export const temporalProperty = (v: TemporalValue, name: string): unknown => {
  const allowed = v instanceof feelin.FeelDate
    ? DATE_PROPS
    : v instanceof feelin.FeelTime
    ? TIME_PROPS
    : v instanceof feelin.FeelDateTime
    ? [...DATE_PROPS, ...TIME_PROPS]
    : v.yearsMonths
    ? YEARS_MONTHS_PROPS
    : DAYS_TIME_PROPS
  if (!allowed.includes(name)) return null
  if (v instanceof feelin.FeelTime || v instanceof feelin.FeelDateTime) {
    if (name === "time offset" && v.zone === null) return null
    if (name === "timezone" && (v.zone === null || OFFSET_ZONE.test(v.zone))) return null
  }
  return fromFeelin((v as unknown as Record<string, unknown>)[name])
}

/**
 * A date, time, date and time or duration from its text by the constructor `ctor` (`date`, `time`, `date and time`,
 * `duration`), after FEEL's text rules (FeelTemporalText.ts); null when the text is not one. The one way texts become
 * temporal values: built-ins, @-literals and JSON inputs alike.
 */
export const temporalFromText = (ctor: string, text: string): unknown => {
  chargeChars(text.length)
  const valid = ctor === "date and time"
    ? dateTimeText(text)
    : ctor === "time"
    ? timeText(text)
    : ctor === "duration"
    ? durationText(text)
    : text
  return valid === null ? null : callFeelinBuiltin(ctor, [valid])
}

/** Parses an `@"..."` literal: date, time, date and time or duration by its form (as the constructor of that kind
 * would); null when none fits. */
export const parseTemporalLiteral = (text: string): unknown => {
  const s = text.trim()
  if (/^-?P/.test(s)) return temporalFromText("duration", s)
  if (/^-?\d{4,}-\d\d-\d\d$/.test(s)) return temporalFromText("date", s)
  if (/^-?\d{4,}-\d\d-\d\dT/.test(s)) return temporalFromText("date and time", s)
  return /^\d\d:\d\d/.test(s) ? temporalFromText("time", s) : null
}

const offsetMinutes = (zone: string): number => {
  if (zone === "UTC" || zone === "Z") return 0
  const sign = zone.startsWith("-") ? -1 : 1
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
}

/**
 * A number that orders temporal values of one kind, to the millisecond (the kit, like feelin, treats times that differ
 * by less as equal); undefined where only feelin can tell (named zones on times).
 */
const orderKey = (v: TemporalValue): number | bigint | undefined => {
  if (v instanceof feelin.FeelDate) return (v.year * 16 + v.month) * 32 + v.day
  if (v instanceof feelin.FeelDateTime) {
    try {
      const millis = v.value.toZonedDateTime(v.zone ?? "UTC").epochMilliseconds
      return v instanceof FarDateTime ? BigInt(millis) + BigInt(v.cycles) * CYCLE_MILLIS : millis
    } catch {
      return undefined
    }
  }
  if (v instanceof feelin.FeelTime) {
    if (v.zone !== null && !OFFSET_ZONE.test(v.zone)) return undefined
    const t = v.value
    const millis = ((t.hour * 60 + t.minute) * 60 + t.second) * 1e3 + t.millisecond
    return millis - (v.zone === null ? 0 : offsetMinutes(v.zone) * 60e3)
  }
  return v.yearsMonths ? v.years * 12 + v.months : v.value.total({ unit: "milliseconds" })
}

/**
 * Order (-1, 0, 1) of two temporal values of the same kind, computed here for speed; null when not comparable.
 * Local and zoned values are compared as feelin does (a local value is read as UTC).
 */
export const temporalOrder = (a: TemporalValue, b: TemporalValue): number | null => {
  if (temporalKind(a) !== temporalKind(b)) return null
  const x = orderKey(a)
  const y = orderKey(b)
  if (x === undefined || y === undefined) {
    const r = viaFeelin("if a < b then -1 else if a > b then 1 else if a = b then 0 else null", { a, b })
    return r instanceof FeelNumber ? r.sign : null
  }
  return x < y ? -1 : x > y ? 1 : 0
}

/** Whether a time or date and time has an offset or zone (dates and durations never have). */
const zoned = (v: TemporalValue): boolean =>
  (v instanceof feelin.FeelTime || v instanceof feelin.FeelDateTime) && v.zone !== null

/** FEEL `=` on temporal values of the same kind; mixed local / zoned values are left to feelin's rules. */
export const temporalEquals = (a: TemporalValue, b: TemporalValue): boolean | null => {
  if (temporalKind(a) !== temporalKind(b)) return null
  if (zoned(a) === zoned(b)) {
    const x = orderKey(a)
    const y = orderKey(b)
    if (x !== undefined && y !== undefined) return x === y
  }
  const r = viaFeelin("a = b", { a, b })
  return typeof r === "boolean" ? r : null
}

/**
 * What temporalEquals compares a temporal value by, as text for hashing (FeelDistinct.ts): two values of one kind that
 * are both local or both zoned are equal exactly when their keys are the same. Whether a local and a zoned time or
 * date and time are equal only feelin tells; undefined where it alone can tell even within one of those groups.
 */
export const temporalIdentity = (v: TemporalValue): { readonly zoned: boolean; readonly key: string } | undefined => {
  let k: number | bigint | undefined
  try {
    k = orderKey(v)
  } catch {
    return undefined
  }
  if (k === undefined || (typeof k === "number" && Number.isNaN(k))) return undefined
  // temporalEquals compares with ===: a bigint key never equals a number key.
  return { zoned: zoned(v), key: typeof k === "bigint" ? `${k}n` : String(k) }
}

/** A days and time duration of `ms` milliseconds, e.g. P367DT6H58M59S. */
const durationOfMillis = (ms: number): unknown => {
  const sign = ms < 0 ? "-" : ""
  let rest = Math.abs(ms)
  const days = Math.floor(rest / 86_400_000)
  rest -= days * 86_400_000
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = rest / 1000
  return callFeelinBuiltin("duration", [`${sign}P${days}DT${hours}H${minutes}M${seconds}S`])
}

/**
 * date and time − date and time: the time between the two instants (DMN 1.5 table 57), so offsets and zones count;
 * null for one local and one zoned value (the spec leaves it undefined: an error); undefined where feelin's rules
 * apply (values Temporal cannot place).
 */
export const dateTimeDifference = (a: feelin.FeelDateTime, b: feelin.FeelDateTime): unknown => {
  if ((a.zone === null) !== (b.zone === null)) return null
  if (cyclesOf(a) !== cyclesOf(b)) return null
  try {
    return durationOfMillis(
      a.value.toZonedDateTime(a.zone ?? "UTC").epochMilliseconds -
        b.value.toZonedDateTime(b.zone ?? "UTC").epochMilliseconds
    )
  } catch {
    return undefined
  }
}

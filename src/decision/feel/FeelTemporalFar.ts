/**
 * Years Temporal cannot hold. FEEL dates and date-times range over years -999,999,999 to 999,999,999 (DMN 1.5
 * §10.3.2.3.6, the XML Schema value space); Temporal, under feelin's values, ends near ±271,821. The Gregorian
 * calendar repeats every 400 years (146,097 days, exactly 20,871 weeks), so a far date is held as the date
 * `cycles` × 400 years nearer, in a window of years Temporal holds (around ±200,000: far future and far past keep
 * the zone rules of their side), together with `cycles`. Months, days, weekdays, leap years and every calendar
 * operation are the same in the window; the year, the text and the order add the cycles back.
 *
 * Operations on far values run on the values in the window (see FeelTemporal's bridge to feelin) when all dates
 * and date-times involved share their cycles; a far value with a date of another cycle (a date of 2020 minus one
 * of year 999,999,999) gives null.
 *
 * Years-and-months durations beyond what Temporal balances (P99999999Y) are held unbalanced, by years and months.
 */
import * as feelin from "feelin"

export const MAX_YEAR = 999_999_999
/** Years up to this far from 0 are Temporal's own. */
const NEAR = 270_000
/** Where far years are moved to: [WINDOW, WINDOW + 400) or (-WINDOW - 400, -WINDOW]. */
const WINDOW = 200_000
const CYCLE_YEARS = 400
/** Milliseconds in 400 Gregorian years. */
export const CYCLE_MILLIS = 146_097n * 86_400_000n

/** The 400-year cycles a year is moved by (0 for years Temporal holds). */
export const cyclesOfYear = (year: number): number =>
  year > NEAR
    ? Math.floor((year - WINDOW) / CYCLE_YEARS)
    : year < -NEAR
    ? Math.ceil((year + WINDOW) / CYCLE_YEARS)
    : 0

/** A year in the XML Schema form FEEL writes (at least four digits, a minus for negative years). */
export const yearText = (year: number): string => `${year < 0 ? "-" : ""}${String(Math.abs(year)).padStart(4, "0")}`

/** A year as Temporal reads it in ISO texts: four digits, or six with a sign. */
const isoYear = (year: number): string =>
  year >= 0 && year <= 9999
    ? String(year).padStart(4, "0")
    : `${year < 0 ? "-" : "+"}${String(Math.abs(year)).padStart(6, "0")}`

/** Temporal's text of a value moved back to its year. */
const withYear = (iso: string, year: number): string => iso.replace(/^[+-]?\d+/, yearText(year))

const setIso = (target: object, iso: string): void => {
  Object.defineProperty(target, "iso", { value: iso, enumerable: true, writable: false, configurable: true })
}

export class FarDate extends feelin.FeelDate {
  readonly cycles: number
  constructor(value: feelin.FeelDate["value"], cycles: number) {
    super(value)
    this.cycles = cycles
    setIso(this, withYear(this.iso, value.year + cycles * CYCLE_YEARS))
  }
  override get year(): number {
    return this.value.year + this.cycles * CYCLE_YEARS
  }
}

export class FarDateTime extends feelin.FeelDateTime {
  readonly cycles: number
  constructor(value: feelin.FeelDateTime["value"], zone: string | null, cycles: number) {
    super(value, zone)
    this.cycles = cycles
    setIso(this, withYear(this.iso, value.year + cycles * CYCLE_YEARS))
  }
  override get year(): number {
    return this.value.year + this.cycles * CYCLE_YEARS
  }
}

/** The cycles of a value: those of a far date or date-time, 0 for any other. */
export const cyclesOf = (v: unknown): number => (v instanceof FarDate || v instanceof FarDateTime ? v.cycles : 0)

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype

/**
 * The cycles shared by the dates and date-times among `values` (deeply in lists and contexts): 0 when none is far,
 * undefined when a far one meets a date or date-time of other cycles.
 */
export const sharedCycles = (values: ReadonlyArray<unknown>): number | undefined => {
  let found: number | undefined
  let mixed = false
  const visit = (v: unknown): void => {
    if (v instanceof feelin.FeelDate || v instanceof feelin.FeelDateTime) {
      const c = cyclesOf(v)
      if (found === undefined) found = c
      else if (found !== c) mixed = true
    } else if (Array.isArray(v)) v.forEach(visit)
    else if (isPlainObject(v)) Object.values(v).forEach(visit)
  }
  values.forEach(visit)
  return mixed ? undefined : (found ?? 0)
}

/** A far value as the plain feelin value in the window, deeply; anything else as it is. */
export const toWindow = (v: unknown): unknown => {
  if (v instanceof FarDate) return new feelin.FeelDate(v.value)
  if (v instanceof FarDateTime) return new feelin.FeelDateTime(v.value, v.zone)
  if (Array.isArray(v)) return v.map(toWindow)
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWindow(x)]))
  return v
}

const inRange = (year: number, cycles: number): boolean => Math.abs(year + cycles * CYCLE_YEARS) <= MAX_YEAR

/** Dates and date-times of the window moved back by `cycles`, deeply; null for one beyond ±999,999,999 years. */
export const fromWindow = (v: unknown, cycles: number): unknown => {
  if (cycles === 0) return v
  if (v instanceof feelin.FeelDate && !(v instanceof FarDate)) {
    return inRange(v.value.year, cycles) ? new FarDate(v.value, cycles) : null
  }
  if (v instanceof feelin.FeelDateTime && !(v instanceof FarDateTime)) {
    return inRange(v.value.year, cycles) ? new FarDateTime(v.value, v.zone, cycles) : null
  }
  if (Array.isArray(v)) return v.map((x) => fromWindow(x, cycles))
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromWindow(x, cycles)]))
  return v
}

/**
 * A date or date-time text whose year Temporal cannot hold, as the text in the window and its cycles; undefined for
 * texts of near years (and texts that are not dates), null for years beyond ±999,999,999.
 */
export const farText = (text: string): { readonly text: string; readonly cycles: number } | null | undefined => {
  const m = /^(-?)(\d{4,})(-\d\d-\d\d(?:T.*)?)$/.exec(text)
  if (m === null) return undefined
  const digits = m[2] ?? ""
  if (digits.length > 4 && digits.startsWith("0")) return undefined
  if (digits.length > 9) return null
  const year = (m[1] === "-" ? -1 : 1) * Number(digits)
  const cycles = cyclesOfYear(year)
  if (cycles === 0) return undefined
  return { text: `${isoYear(year - cycles * CYCLE_YEARS)}${m[3]}`, cycles }
}

let durationClass: (new(years: number, months: number) => feelin.FeelDuration["value"]) | undefined

/**
 * A years-and-months duration of `months` (any size up to ±1,999,999,998 years), or undefined when Temporal's own
 * duration can hold it (within ±200,000 years).
 */
export const largeYearsMonths = (months: bigint): feelin.FeelDuration | null | undefined => {
  const abs = months < 0n ? -months : months
  if (abs <= BigInt(WINDOW) * 12n) return undefined
  // The longest span between two FEEL dates.
  if (abs > 2n * BigInt(MAX_YEAR) * 12n + 11n) return null
  if (durationClass === undefined) {
    const sample = feelin.evaluate(`duration("P1Y")`, {}).value as feelin.FeelDuration
    durationClass = sample.value.constructor as unknown as typeof durationClass
  }
  const sign = months < 0n ? -1 : 1
  const years = Number(abs / 12n)
  const rest = Number(abs % 12n)
  const d = Object.create(feelin.FeelDuration.prototype) as feelin.FeelDuration
  Object.defineProperty(d, "value", { value: new durationClass!(sign * years, sign * rest), enumerable: false })
  Object.defineProperty(d, "yearsMonths", { value: true, enumerable: true })
  setIso(d, `${sign < 0 ? "-" : ""}P${years === 0 ? "" : `${years}Y`}${rest === 0 && years !== 0 ? "" : `${rest}M`}`)
  return d
}

/** feelin's durations (balanced by Temporal against a date) hold at most 100,000,000 days (about 273,790 years). */
const FEELIN_DAYS = 100_000_000n

/**
 * A days-and-time duration of `nanos` nanoseconds, or undefined when feelin's own duration can hold it. Beyond
 * (the time between dates of far years: 999,999,999 minus 2020 is P365241762209D) it is held by its days, hours,
 * minutes, seconds and fraction, which is all FEEL reads of it; its order is exact (in milliseconds, as a bigint).
 */
export const largeDaysTime = (nanos: bigint): feelin.FeelDuration | undefined => {
  const abs = nanos < 0n ? -nanos : nanos
  if (abs / 1_000_000_000n / 86_400n < FEELIN_DAYS) return undefined
  const sign = nanos < 0n ? -1 : 1
  const seconds = abs / 1_000_000_000n
  const fraction = abs % 1_000_000_000n
  const [days, hours, minutes, secs] = [
    seconds / 86_400n,
    (seconds % 86_400n) / 3600n,
    (seconds % 3600n) / 60n,
    seconds % 60n
  ]
  const field = (n: bigint) => sign * Number(n)
  const value = {
    years: 0,
    months: 0,
    weeks: 0,
    days: field(days),
    hours: field(hours),
    minutes: field(minutes),
    seconds: field(secs),
    milliseconds: field(fraction / 1_000_000n),
    microseconds: field((fraction / 1000n) % 1000n),
    nanoseconds: field(fraction % 1000n),
    sign,
    total: () => (nanos / 1_000_000n)
  }
  const d = Object.create(feelin.FeelDuration.prototype) as feelin.FeelDuration
  Object.defineProperty(d, "value", { value, enumerable: false })
  Object.defineProperty(d, "yearsMonths", { value: false, enumerable: true })
  const fractionText = fraction === 0n ? "" : `.${String(fraction).padStart(9, "0").replace(/0+$/, "")}`
  const time = `${hours === 0n ? "" : `${hours}H`}${minutes === 0n ? "" : `${minutes}M`}${
    secs === 0n && fraction === 0n ? "" : `${secs}${fractionText}S`
  }`
  setIso(d, `${sign < 0 ? "-" : ""}P${days}D${time === "" ? "" : `T${time}`}`)
  return d
}

/**
 * Calendar arithmetic across 400-year cycles (FeelTemporalFar.ts): where a date or date-time of a far year meets one
 * of other cycles, or a duration moves a value beyond what Temporal holds. The calendar is counted here (days since
 * 1970-01-01 of any Gregorian date, months since year 0), so `date("999999999-12-31") - date("2020-01-01")`,
 * `date("2020-01-01") + duration("P999999979Y")` and the like give their values, not null. Used only where the
 * ordinary path (Temporal, through feelin) cannot answer.
 */
import * as feelin from "feelin"
import { amountOf, durationOf } from "./FeelDurationArithmetic.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { callFeelinBuiltin, viaFeelin } from "./FeelTemporal.ts"
import { CYCLE_MILLIS, cyclesOf, cyclesOfYear, fromWindow, MAX_YEAR, toWindow } from "./FeelTemporalFar.ts"

const CYCLE_DAYS = 146_097n
const CYCLE_NANOS = CYCLE_MILLIS * 1_000_000n

/** Days since 1970-01-01 of a Gregorian date of any year (H. Hinnant's days_from_civil). */
const epochDay = (y: bigint, m: number, d: number): bigint => {
  const year = m <= 2 ? y - 1n : y
  const era = (year >= 0n ? year : year - 399n) / 400n
  const yoe = year - era * 400n
  const doy = (153n * BigInt((m + 9) % 12) + 2n) / 5n + BigInt(d) - 1n
  return era * CYCLE_DAYS + yoe * 365n + yoe / 4n - yoe / 100n + doy - 719_468n
}

/** The Gregorian date of a day since 1970-01-01 (civil_from_days). */
const civil = (days: bigint): { readonly year: bigint; readonly month: number; readonly day: number } => {
  const z = days + 719_468n
  const era = (z >= 0n ? z : z - 146_096n) / CYCLE_DAYS
  const doe = z - era * CYCLE_DAYS
  const yoe = (doe - doe / 1460n + doe / 36_524n - doe / 146_096n) / 365n
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n)
  const mp = (5n * doy + 2n) / 153n
  const month = Number(mp < 10n ? mp + 3n : mp - 9n)
  return { year: yoe + era * 400n + (month <= 2 ? 1n : 0n), month, day: Number(doy - (153n * mp + 2n) / 5n + 1n) }
}

const monthLength = (year: bigint, month: number): number =>
  month === 2
    ? (year % 4n === 0n && year % 100n !== 0n) || year % 400n === 0n ? 29 : 28
    : [4, 6, 9, 11].includes(month)
    ? 30
    : 31

/** date(year, month, day) of any year FEEL holds; null beyond ±999,999,999. */
const dateOf = (year: bigint, month: number, day: number): unknown =>
  year > BigInt(MAX_YEAR) || year < -BigInt(MAX_YEAR)
    ? null
    : callFeelinBuiltin("date", [FeelNumber.fromInt(year), FeelNumber.fromInt(month), FeelNumber.fromInt(day)])

const wholeOf = (n: FeelNumber, mode: "FLOOR" | "DOWN"): bigint => BigInt(n.setScale(0, mode).toString())

const DAY_NANOS = 86_400n * 1_000_000_000n

/** A days and time duration's nanoseconds (amountOf is its seconds, to nine decimals). */
const nanosOf = (d: feelin.FeelDuration): bigint =>
  wholeOf(amountOf(d).multiply(FeelNumber.fromInt(1_000_000_000)), "DOWN")

/** A days and time duration of `nanos` nanoseconds (of any size). */
const durationOfNanos = (nanos: bigint): unknown => {
  const abs = nanos < 0n ? -nanos : nanos
  const seconds = abs / 1_000_000_000n
  const fraction = abs % 1_000_000_000n
  const rest = seconds % 86_400n
  return callFeelinBuiltin("duration", [
    `${nanos < 0n ? "-" : ""}P${seconds / 86_400n}DT${rest / 3600n}H${(rest % 3600n) / 60n}M${rest % 60n}${
      fraction === 0n ? "" : `.${String(fraction).padStart(9, "0")}`
    }S`
  ])
}

/** date ± duration: years and months by the calendar (the day kept within the month), days and time by the day. */
const dateShift = (sign: 1n | -1n, d: feelin.FeelDate, duration: feelin.FeelDuration): unknown => {
  const year = BigInt(d.year)
  if (duration.yearsMonths) {
    const months = year * 12n + BigInt(d.month - 1) + sign * wholeOf(amountOf(duration), "DOWN")
    const y = months >= 0n ? months / 12n : -((-months + 11n) / 12n)
    const m = Number(months - y * 12n) + 1
    return dateOf(y, m, Math.min(d.day, monthLength(y, m)))
  }
  // The date's midnight UTC moved by the duration, then its date.
  const nanos = sign * nanosOf(duration)
  const moved = epochDay(year, d.month, d.day) +
    (nanos >= 0n ? nanos / DAY_NANOS : -((-nanos + DAY_NANOS - 1n) / DAY_NANOS))
  const { year: y, month, day } = civil(moved)
  return dateOf(y, month, day)
}

/** A date-time of the window with `cycles`, moved to the cycles its year has (FeelTemporalFar's form); null beyond. */
const recycled = (v: unknown, cycles: number): unknown => {
  if (!(v instanceof feelin.FeelDateTime)) return null
  const year = v.year + cycles * 400
  if (Math.abs(year) > MAX_YEAR) return null
  const target = cyclesOfYear(year)
  const shift = cycles - target
  const moved = shift === 0
    ? v
    : viaFeelin(`a ${shift > 0 ? "+" : "-"} b`, {
      a: v,
      b: callFeelinBuiltin("duration", [`P${Math.abs(shift) * 400}Y`])
    })
  return moved === null ? null : fromWindow(moved, target)
}

/** date and time ± duration: years and months on its date (time and zone kept), days and time by whole cycles first. */
const dateTimeShift = (sign: 1n | -1n, dt: feelin.FeelDateTime, duration: feelin.FeelDuration): unknown => {
  if (duration.yearsMonths) {
    const date = dateShift(sign, callFeelinBuiltin("date", [dt]) as feelin.FeelDate, duration)
    return date === null ? null : callFeelinBuiltin("date and time", [date, callFeelinBuiltin("time", [dt])])
  }
  const nanos = sign * nanosOf(duration)
  const cycles = nanos / CYCLE_NANOS
  const rest = durationOfNanos(nanos - cycles * CYCLE_NANOS)
  const moved = viaFeelin("a + b", { a: toWindow(dt), b: rest })
  return recycled(moved, cyclesOf(dt) + Number(cycles))
}

/** The instant of a date-time in milliseconds since 1970 (a local one read as UTC), of any year. */
const instantMillis = (v: feelin.FeelDateTime): bigint | undefined => {
  try {
    const window = toWindow(v) as feelin.FeelDateTime
    return BigInt(window.value.toZonedDateTime(v.zone ?? "UTC").epochMilliseconds) + BigInt(cyclesOf(v)) * CYCLE_MILLIS
  } catch {
    return undefined
  }
}

/**
 * `a op b` for dates, date-times and durations where the values' cycles differ or a result leaves Temporal's years;
 * undefined for operands this does not cover.
 */
export const farArithmetic = (op: string, a: unknown, b: unknown): unknown => {
  if (op === "+" && a instanceof feelin.FeelDuration && !(b instanceof feelin.FeelDuration)) {
    return farArithmetic("+", b, a)
  }
  if (op !== "+" && op !== "-") return undefined
  const sign = op === "+" ? 1n : -1n
  if (b instanceof feelin.FeelDuration) {
    if (a instanceof feelin.FeelDuration && !a.yearsMonths && !b.yearsMonths) {
      return durationOf(op === "+" ? amountOf(a).add(amountOf(b)) : amountOf(a).subtract(amountOf(b)), false)
    }
    if (a instanceof feelin.FeelDate) return dateShift(sign, a, b)
    if (a instanceof feelin.FeelDateTime) return dateTimeShift(sign, a, b)
    return undefined
  }
  if (op === "-" && a instanceof feelin.FeelDate && b instanceof feelin.FeelDate) {
    const days = epochDay(BigInt(a.year), a.month, a.day) - epochDay(BigInt(b.year), b.month, b.day)
    return callFeelinBuiltin("duration", [`${days < 0n ? "-" : ""}P${days < 0n ? -days : days}D`])
  }
  if (op === "-" && a instanceof feelin.FeelDateTime && b instanceof feelin.FeelDateTime) {
    if ((a.zone === null) !== (b.zone === null)) return null
    const x = instantMillis(a)
    const y = instantMillis(b)
    return x === undefined || y === undefined ? null : durationOfNanos((x - y) * 1_000_000n)
  }
  return undefined
}

/**
 * Date and time built-ins (DMN 1.5 §10.3.4.1 conversions, §10.3.4.6 date and time functions). Parsing and calendar
 * rules are feelin's; this layer checks argument kinds (integers where the spec says so) before handing over.
 */
import * as feelin from "feelin"
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { callFeelinBuiltin, isTemporal, temporalFromText } from "./FeelTemporal.ts"
import { feelEquals, kindOf } from "./FeelValues.ts"

const isInt = (v: unknown): boolean => v instanceof FeelNumber && v.isInteger
const isDateLike = (v: unknown): boolean => v instanceof feelin.FeelDate || v instanceof feelin.FeelDateTime

/** A days-and-time duration as a zone offset, e.g. -PT1H as "-01:00", PT2H45M55S as "+02:45:55". */
const offsetText = (d: feelin.FeelDuration): string => {
  const negative = d.iso.startsWith("-")
  const seconds = (Math.abs(d.days) * 1440 + Math.abs(d.hours) * 60 + Math.abs(d.minutes)) * 60 + Math.abs(d.seconds)
  const pad = (n: number) => String(n).padStart(2, "0")
  const minutes = Math.floor(seconds / 60)
  return `${negative ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}${
    seconds % 60 === 0 ? "" : `:${pad(seconds % 60)}`
  }`
}

const delegate = (name: string) => (args: ReadonlyArray<unknown>): unknown => callFeelinBuiltin(name, args)

/** Whole months between the dates of two dates / date-times (times of day do not count), dropping the part of a month left over. */
const monthsBetween = (from: unknown, to: unknown): number | undefined => {
  const parts = (v: unknown): { months: number; rest: number } | undefined => {
    if (v instanceof feelin.FeelDate || v instanceof feelin.FeelDateTime) {
      return { months: v.year * 12 + v.month, rest: v.day }
    }
    return undefined
  }
  const a = parts(from)
  const b = parts(to)
  if (a === undefined || b === undefined) return undefined
  let months = b.months - a.months
  if (months > 0 && b.rest < a.rest) months -= 1
  if (months < 0 && b.rest > a.rest) months += 1
  return months
}

const dateArg = (name: string) =>
  builtin(signature(["date"], ([d]) => (isDateLike(d) ? callFeelinBuiltin(name, [d]) : null)))

export const TEMPORAL_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  date: builtin(
    signature(
      ["from"],
      ([from]) => (typeof from === "string" || isDateLike(from) ? callFeelinBuiltin("date", [from]) : null)
    ),
    signature(["year", "month", "day"], (args) => (args.every(isInt) ? callFeelinBuiltin("date", args) : null))
  ),
  "date and time": builtin(
    signature(
      ["from"],
      ([from]) => (typeof from === "string" ? temporalFromText("date and time", from) : null)
    ),
    signature(
      ["date", "time"],
      ([d, t]) => isDateLike(d) && t instanceof feelin.FeelTime ? callFeelinBuiltin("date and time", [d, t]) : null
    )
  ),
  time: builtin(
    signature(
      ["from"],
      ([from]) => {
        if (typeof from === "string") return temporalFromText("time", from)
        return from instanceof feelin.FeelTime || from instanceof feelin.FeelDateTime || from instanceof feelin.FeelDate
          ? callFeelinBuiltin("time", [from])
          : null
      }
    ),
    signature(["hour", "minute", "second", "offset?"], ([h, m, s, offset]) => {
      if (!isInt(h) || !isInt(m) || !(s instanceof FeelNumber)) return null
      if (offset !== null && !(offset instanceof feelin.FeelDuration && !offset.yearsMonths)) return null
      // Built as time text so that fractional seconds (time(12, 59, 1.3)) are kept exactly.
      const seconds = s.toString().split(".")
      const pad = (x: string) => x.padStart(2, "0")
      const text = `${pad(String(h))}:${pad(String(m))}:${pad(seconds[0] ?? "0")}${
        seconds[1] === undefined ? "" : `.${seconds[1]}`
      }`
      if (s.sign < 0) return null
      return callFeelinBuiltin("time", [offset === null ? text : `${text}${offsetText(offset)}`])
    })
  ),
  // Seconds are an xs:decimal, whose lexical form allows a trailing point ("PT0.S"); feelin's parser does not.
  duration: builtin(
    signature(
      ["from"],
      ([from]) => (typeof from === "string" ? temporalFromText("duration", from) : null)
    )
  ),
  "years and months duration": builtin(signature(["from", "to"], ([from, to]) => {
    const months = monthsBetween(from, to)
    if (months === undefined) return null
    const abs = Math.abs(months)
    return callFeelinBuiltin("duration", [`${months < 0 ? "-" : ""}P${Math.floor(abs / 12)}Y${abs % 12}M`])
  })),
  now: builtin(signature([], delegate("now"))),
  today: builtin(signature([], delegate("today"))),
  "day of year": dateArg("day of year"),
  "day of week": dateArg("day of week"),
  "month of year": dateArg("month of year"),
  "week of year": dateArg("week of year"),
  // is(value1, value2): same kind and equal; for temporal values also the same time zone form (feelin's `is`).
  is: builtin(signature(["value1?", "value2?"], ([a, b]) => {
    if (a === null || b === null) return a === null && b === null
    if (kindOf(a) !== kindOf(b)) return false
    if (isTemporal(a) && isTemporal(b)) return callFeelinBuiltin("is", [a, b]) === true
    return feelEquals(a, b) === true
  }))
}

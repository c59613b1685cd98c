/**
 * Durations scaled and compared (DMN 1.5 §10.3.2.3.4, table 57): duration × number, number × duration,
 * duration ÷ number (same kind of duration) and duration ÷ duration of the same kind (a number); years-and-months
 * durations ± each other by their months. A days-and-time
 * duration counts its seconds exactly; a years-and-months duration its whole months (a fractional product is
 * truncated toward zero, as jDMN does). Dividing by zero, or mixing the two kinds, is null.
 */
import * as feelin from "feelin"
import { FeelNumber } from "./FeelNumber.ts"
import { callFeelinBuiltin } from "./FeelTemporal.ts"

const SECONDS_PER = { days: 86_400n, hours: 3_600n, minutes: 60n } as const

/** The exact amount of a duration: seconds (days and time) or months (years and months). */
export const amountOf = (d: feelin.FeelDuration): FeelNumber => {
  const v = d.value
  if (d.yearsMonths) return FeelNumber.fromInt(BigInt(v.years) * 12n + BigInt(v.months))
  const whole = BigInt(v.days) * SECONDS_PER.days + BigInt(v.hours) * SECONDS_PER.hours +
    BigInt(v.minutes) * SECONDS_PER.minutes + BigInt(v.seconds)
  const nanos = BigInt(v.milliseconds) * 1_000_000n + BigInt(v.microseconds) * 1_000n + BigInt(v.nanoseconds)
  return FeelNumber.of(whole * 1_000_000_000n + nanos, -9)
}

/** A duration of the given kind holding this amount (seconds or months). */
export const durationOf = (amount: FeelNumber, yearsMonths: boolean): unknown => {
  const negative = amount.compare(FeelNumber.fromInt(0)) < 0
  const sign = negative ? "-" : ""
  const magnitude = amount.abs()
  if (yearsMonths) {
    const months = BigInt(magnitude.toString().split(".")[0]!)
    return callFeelinBuiltin("duration", [`${sign}P${months / 12n}Y${months % 12n}M`])
  }
  const [wholeText, fraction = ""] = magnitude.toString().split(".")
  const whole = BigInt(wholeText!)
  const days = whole / SECONDS_PER.days
  const rest = whole % SECONDS_PER.days
  const seconds = `${rest % 60n}${fraction === "" ? "" : `.${fraction.slice(0, 9)}`}`
  return callFeelinBuiltin("duration", [
    `${sign}P${days}DT${rest / SECONDS_PER.hours}H${(rest % SECONDS_PER.hours) / 60n}M${seconds}S`
  ])
}

/** The result of a duration scaled or divided, or undefined when the operands are not a duration case. */
export const durationArithmetic = (op: string, a: unknown, b: unknown): unknown => {
  if (op === "*" && a instanceof FeelNumber && b instanceof feelin.FeelDuration) return durationArithmetic("*", b, a)
  if (!(a instanceof feelin.FeelDuration)) return undefined
  if ((op === "*" || op === "/") && b instanceof FeelNumber) {
    const scaled = op === "*" ? amountOf(a).multiply(b) : amountOf(a).divide(b)
    return scaled === null || (op === "/" && b.compare(FeelNumber.fromInt(0)) === 0)
      ? null
      : durationOf(scaled, a.yearsMonths)
  }
  // Years and months durations add by their months, of any size (Temporal's own sum needs a calendar anchor).
  if ((op === "+" || op === "-") && b instanceof feelin.FeelDuration && a.yearsMonths && b.yearsMonths) {
    return durationOf(op === "+" ? amountOf(a).add(amountOf(b)) : amountOf(a).subtract(amountOf(b)), true)
  }
  if (op === "/" && b instanceof feelin.FeelDuration) {
    if (a.yearsMonths !== b.yearsMonths) return null
    const divisor = amountOf(b)
    return divisor.compare(FeelNumber.fromInt(0)) === 0 ? null : amountOf(a).divide(divisor)
  }
  return undefined
}

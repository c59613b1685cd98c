/**
 * FEEL arithmetic (DMN 1.5 §10.3.2.3): exact decimal operations on numbers, string concatenation with `+`, and
 * temporal arithmetic (date ± duration, date − date, duration × number, ...) through feelin's calendar code, or where
 * that cannot answer (far years, FeelTemporalFarArithmetic.ts) by counting the calendar. Any null operand, or operands
 * that do not combine, give null.
 */
import * as feelin from "feelin"
import { checkMade } from "./FeelBudget.ts"
import { durationArithmetic } from "./FeelDurationArithmetic.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { power } from "./FeelNumberMath.ts"
import { callFeelinBuiltin, dateTimeDifference, isTemporal, viaFeelin } from "./FeelTemporal.ts"
import { cyclesOf } from "./FeelTemporalFar.ts"
import { farArithmetic } from "./FeelTemporalFarArithmetic.ts"

export type ArithOp = "+" | "-" | "*" | "/" | "**"

const temporalOperands = (a: unknown, b: unknown): boolean =>
  (isTemporal(a) || isTemporal(b)) && (isTemporal(a) || a instanceof FeelNumber) &&
  (isTemporal(b) || b instanceof FeelNumber)

const dated = (x: unknown): boolean => x instanceof feelin.FeelDate || x instanceof feelin.FeelDateTime

const MIDNIGHT_UTC = callFeelinBuiltin("time", ["00:00:00Z"])

/** A date as the date and time of its midnight UTC. */
const midnightUtc = (d: feelin.FeelDate): unknown => callFeelinBuiltin("date and time", [d, MIDNIGHT_UTC])

export const arithmetic = (op: ArithOp, a: unknown, b: unknown): unknown => {
  if (a === null || a === undefined || b === null || b === undefined) return null
  if (a instanceof FeelNumber && b instanceof FeelNumber) {
    switch (op) {
      case "+":
        return a.add(b)
      case "-":
        return a.subtract(b)
      case "*":
        return a.multiply(b)
      case "/":
        return a.divide(b)
      case "**":
        return power(a, b)
    }
  }
  if (op === "+" && typeof a === "string" && typeof b === "string") return checkMade(a + b)
  if (op === "-" && isTemporal(a) && isTemporal(b)) {
    // A time has no date: a date or date and time minus a time, or a time minus one, is not defined (null).
    if ((dated(a) && b instanceof feelin.FeelTime) || (a instanceof feelin.FeelTime && dated(b))) return null
    // date and time − date, date − date and time: the date counts as its midnight UTC (a local date and time with it
    // is then null, as zoned − local is).
    if (a instanceof feelin.FeelDateTime && b instanceof feelin.FeelDate) return arithmetic("-", a, midnightUtc(b))
    if (a instanceof feelin.FeelDate && b instanceof feelin.FeelDateTime) return arithmetic("-", midnightUtc(a), b)
  }
  if (op === "-" && a instanceof feelin.FeelDateTime && b instanceof feelin.FeelDateTime) {
    if (cyclesOf(a) !== cyclesOf(b)) return farArithmetic(op, a, b)
    const difference = dateTimeDifference(a, b)
    if (difference !== undefined) return difference
  }
  // date ± days-and-time duration is a date: the date at midnight UTC moved by the duration, then its date (DMN 1.5).
  if (
    (op === "+" || op === "-") && a instanceof feelin.FeelDate && b instanceof feelin.FeelDuration && !b.yearsMonths
  ) {
    return viaFeelin(`date(date and time(a, time("00:00:00Z")) ${op} b)`, { a, b }) ?? farArithmetic(op, a, b)
  }
  if (op === "+" && a instanceof feelin.FeelDuration && !a.yearsMonths && b instanceof feelin.FeelDate) {
    return arithmetic("+", b, a)
  }
  // A time has no calendar: time ± years-and-months duration is not defined (an error, so null).
  const timeAndMonths = (x: unknown, y: unknown) =>
    x instanceof feelin.FeelTime && y instanceof feelin.FeelDuration && y.yearsMonths
  if ((op === "+" || op === "-") && (timeAndMonths(a, b) || (op === "+" && timeAndMonths(b, a)))) return null
  const scaled = durationArithmetic(op, a, b)
  if (scaled !== undefined) return scaled
  if (op !== "**" && temporalOperands(a, b)) {
    // Where Temporal cannot answer (values of other 400-year cycles, years beyond its own), the calendar is counted.
    return viaFeelin(`a ${op} b`, { a, b }) ?? farArithmetic(op, a, b) ?? null
  }
  return null
}

export const negate = (a: unknown): unknown => {
  if (a instanceof FeelNumber) return a.negate()
  if (a instanceof feelin.FeelDuration) {
    return callFeelinBuiltin("duration", [a.iso.startsWith("-") ? a.iso.slice(1) : `-${a.iso}`])
  }
  return null
}

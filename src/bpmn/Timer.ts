// When a timer is due: a fixed date-time (timeDate) or an ISO 8601 duration counted from the moment the token arrives
// (timeDuration), either literal or a FEEL expression (SERVICE.md: timers fire once; cycles are refused at deploy).
import { evaluateFeel, isExpression } from "./Expressions.ts"

export interface TimerDefinition {
  readonly kind: "duration" | "date"
  readonly expression: string
}

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/** Adds an ISO 8601 duration to an instant (calendar arithmetic in UTC for years and months). */
export const addIsoDuration = (fromMillis: number, duration: string): number | null => {
  const match = DURATION.exec(duration.trim())
  if (match === null || duration.trim() === "P" || duration.trim().endsWith("T")) return null
  const [, years, months, weeks, days, hours, minutes, seconds] = match.map((part) => Number(part ?? 0))
  const date = new Date(fromMillis)
  date.setUTCFullYear(date.getUTCFullYear() + years!, date.getUTCMonth() + months!)
  return date.getTime() + (((weeks! * 7 + days!) * 24 + hours!) * 60 + minutes!) * 60_000 + Math.round(seconds! * 1000)
}

export type DueAt = { readonly ok: true; readonly dueAt: number } | { readonly ok: false; readonly message: string }

export const dueAt = (
  timer: TimerDefinition,
  nowMillis: number,
  variables: Readonly<Record<string, unknown>>
): DueAt => {
  let text = timer.expression
  if (isExpression(text)) {
    const value = evaluateFeel(text, variables)
    if (!value.ok) return { ok: false, message: value.message }
    if (value.value === null) return { ok: false, message: `timer expression ${text} gave null` }
    text = String(value.value)
  }
  if (timer.kind === "duration") {
    const due = addIsoDuration(nowMillis, text)
    return due === null ? { ok: false, message: `"${text}" is not an ISO 8601 duration` } : { ok: true, dueAt: due }
  }
  const due = Date.parse(text)
  return Number.isNaN(due) ? { ok: false, message: `"${text}" is not an ISO 8601 date-time` } : { ok: true, dueAt: due }
}

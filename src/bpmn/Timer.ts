// When a timer is due: a fixed date-time (timeDate), an ISO 8601 duration counted from the moment the token arrives
// (timeDuration), or a repeating cycle (timeCycle, TimerCycle.ts: first occurrence here, the next ones after each
// fire), either literal or a FEEL expression.
import { parseDateTime } from "./CalendarDates.ts"
import { evaluateFeel, isExpression } from "./Expressions.ts"
import { addIsoDuration } from "./IsoDuration.ts"
import { DUE_RANGE, isSchedulable } from "./StoredRanges.ts"
import { type Cycle, firstOccurrence, nextOccurrence, parseCycle } from "./TimerCycle.ts"

export interface TimerDefinition {
  readonly kind: "duration" | "date" | "cycle"
  readonly expression: string
}

export { addIsoDuration } from "./IsoDuration.ts"

export type DueAt = { readonly ok: true; readonly dueAt: number } | { readonly ok: false; readonly message: string }

const textOf = (
  timer: TimerDefinition,
  variables: Readonly<Record<string, unknown>>
): { ok: true; text: string } | { ok: false; message: string } => {
  if (!isExpression(timer.expression)) return { ok: true, text: timer.expression }
  const value = evaluateFeel(timer.expression, variables)
  if (!value.ok) return { ok: false, message: value.message }
  if (value.value === null) return { ok: false, message: `timer expression ${timer.expression} gave null` }
  return { ok: true, text: String(value.value) }
}

export const dueAt = (
  timer: TimerDefinition,
  nowMillis: number,
  variables: Readonly<Record<string, unknown>>
): DueAt => {
  const evaluated = textOf(timer, variables)
  if (!evaluated.ok) return evaluated
  const due = dueOf(timer.kind, evaluated.text, nowMillis)
  // A due time the database cannot hold fails like a malformed one (an incident where a token arrives).
  return !due.ok || isSchedulable(due.dueAt)
    ? due
    : { ok: false, message: `"${evaluated.text}" gives a due time outside ${DUE_RANGE}` }
}

const dueOf = (kind: TimerDefinition["kind"], text: string, nowMillis: number): DueAt => {
  if (kind === "cycle") {
    const cycle = parseCycle(text)
    if (cycle === undefined) {
      return {
        ok: false,
        message: `"${text}" is neither an ISO 8601 repeating interval (R3/PT1H) nor a cron expression`
      }
    }
    const tooOften = tooOftenProblem(cycle, text)
    if (tooOften !== undefined) return { ok: false, message: tooOften }
    const first = firstOccurrence(cycle, nowMillis)
    return first === null
      ? { ok: false, message: `the cycle "${text}" has no occurrence ahead` }
      : { ok: true, dueAt: first }
  }
  if (kind === "duration") {
    const due = addIsoDuration(nowMillis, text)
    return due === null ? { ok: false, message: `"${text}" is not an ISO 8601 duration` } : { ok: true, dueAt: due }
  }
  const due = parseDateTime(text)
  return Number.isNaN(due) ? { ok: false, message: `"${text}" is not an ISO 8601 date-time` } : { ok: true, dueAt: due }
}

/**
 * After a cycle fired (`fired` times so far, the last one due at `lastDue`): when it fires next, or null when it is
 * done (R<n> used up, its next occurrence outside DUE_RANGE, or its interval under MIN_CYCLE_INTERVAL) or not a
 * cycle. Missed occurrences are not fired one by one (TimerCycle.ts, the catch-up rule).
 */
export const nextCycleDue = (
  timer: TimerDefinition,
  lastDue: number,
  nowMillis: number,
  fired: number,
  variables: Readonly<Record<string, unknown>>
): number | null => {
  if (timer.kind !== "cycle") return null
  const evaluated = textOf(timer, variables)
  const cycle = evaluated.ok ? parseCycle(evaluated.text) : undefined
  // A cycle that now repeats too often (its FEEL gives another value, or it was deployed before the bound) ends.
  if (cycle === undefined || tooOftenProblem(cycle, "") !== undefined) return null
  const next = nextOccurrence(cycle, lastDue, nowMillis, fired)
  return next !== null && isSchedulable(next) ? next : null
}

/**
 * The longest literal duration or cycle interval a model may give: counted from when a token arrives it must still end
 * within DUE_RANGE (checked again then: dueAt), and a thousand years does for as long as this code runs. (Counted from
 * the Unix epoch, as before, ~8,000 years passed the deploy and only failed as an incident when a token arrived.)
 */
const MAX_TIMER_SPAN = "P1000Y"
const MAX_TIMER_SPAN_MILLIS = addIsoDuration(0, MAX_TIMER_SPAN)!

/**
 * The shortest interval of a repeating cycle: one fire per poll (every 250 ms) for ever is a stream of instances or of
 * boundary fires that no model needs. Cron needs no bound: its finest field is the second.
 */
const MIN_CYCLE_INTERVAL = "PT1S"
const MIN_CYCLE_INTERVAL_MILLIS = addIsoDuration(0, MIN_CYCLE_INTERVAL)!

const tooOftenProblem = (cycle: Cycle, text: string): string | undefined =>
  cycle.kind === "repeat" && (addIsoDuration(0, cycle.interval) ?? 0) < MIN_CYCLE_INTERVAL_MILLIS
    ? `timer cycle ${text} repeats too often: its interval must be at least 1 second (${MIN_CYCLE_INTERVAL})`
    : undefined

/**
 * What is wrong with a literal timer, or undefined when it reads and can be scheduled: a date within DUE_RANGE; a
 * duration, or a cycle's interval, of at most MAX_TIMER_SPAN (and a cycle's of at least MIN_CYCLE_INTERVAL).
 */
export const literalTimerProblem = (kind: "duration" | "date" | "cycle", text: string): string | undefined => {
  if (kind === "duration") {
    const span = addIsoDuration(0, text)
    return span === null
      ? `timer ${text} is not an ISO 8601 duration`
      : span <= MAX_TIMER_SPAN_MILLIS
      ? undefined
      : `timer ${text} is too long: at most 1,000 years (${MAX_TIMER_SPAN})`
  }
  if (kind === "date") {
    const due = parseDateTime(text)
    return Number.isNaN(due)
      ? `timer ${text} is not an ISO 8601 date-time`
      : isSchedulable(due)
      ? undefined
      : `timer ${text} is outside ${DUE_RANGE}`
  }
  const cycle = parseCycle(text)
  if (cycle === undefined) {
    return `timer cycle ${text} is neither an ISO 8601 repeating interval (R3/PT1H, R/PT10M, R2/2026-01-01T09:00:00Z/P1D) nor a cron expression`
  }
  if (cycle.kind === "cron") return undefined
  const tooOften = tooOftenProblem(cycle, text)
  if (tooOften !== undefined) return tooOften
  const span = addIsoDuration(0, cycle.interval)
  if (span === null || span > MAX_TIMER_SPAN_MILLIS) {
    return `timer cycle ${text} repeats too seldom: its interval may be at most 1,000 years (${MAX_TIMER_SPAN})`
  }
  const start = cycle.start ?? 0
  return isSchedulable(start) && isSchedulable(addIsoDuration(start, cycle.interval) ?? NaN)
    ? undefined
    : `timer cycle ${text} is outside ${DUE_RANGE}`
}

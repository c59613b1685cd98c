// Repeating timers (timeCycle), as Zeebe reads them: ISO 8601 repeating intervals `R<n>/<duration>`, `R/<duration>`
// (for ever) and `R<n>/<start>/<duration>`, or a cron expression (`[seconds] minutes hours day-of-month month
// day-of-week`, with `*`, `?`, lists, ranges, steps and names, in UTC).
//
// The rule after downtime (catch-up): a cycle that missed occurrences fires ONCE for all of them, then continues at
// its first occurrence after now — never a storm of missed fires. That catch-up fire counts as one repetition of R<n>.
import { parseDateTime } from "./CalendarDates.ts"
import { addIsoDuration } from "./IsoDuration.ts"

export type Cycle =
  | {
    readonly kind: "repeat"
    readonly repetitions: number | null
    readonly start: number | null
    readonly interval: string
  }
  | { readonly kind: "cron"; readonly fields: CronFields }

interface CronFields {
  readonly seconds: ReadonlySet<number>
  readonly minutes: ReadonlySet<number>
  readonly hours: ReadonlySet<number>
  readonly daysOfMonth: ReadonlySet<number> | null
  readonly months: ReadonlySet<number>
  readonly daysOfWeek: ReadonlySet<number> | null
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]

/** One cron field as the set of values it allows; null for `*` / `?` on the day fields; undefined when invalid. */
const cronField = (text: string, min: number, max: number, names: ReadonlyArray<string> = [], base = min) => {
  if (text === "?") return null
  const values = new Set<number>()
  const value = (part: string): number | undefined => {
    const named = names.indexOf(part.toUpperCase())
    const n = named >= 0 ? named + base : /^\d+$/.test(part) ? Number(part) : NaN
    // day of week 7 is Sunday too
    const normalized = names === DAYS && n === 7 ? 0 : n
    return Number.isInteger(normalized) && normalized >= min && normalized <= max ? normalized : undefined
  }
  for (const item of text.split(",")) {
    const [range, stepText] = item.split("/")
    const step = stepText === undefined ? 1 : Number(stepText)
    if (!Number.isInteger(step) || step < 1 || range === undefined) return undefined
    let from: number | undefined
    let to: number | undefined
    if (range === "*") [from, to] = [min, max]
    else if (range.includes("-")) {
      const [a, b] = range.split("-")
      from = value(a ?? "")
      to = value(b ?? "")
    } else {
      from = value(range)
      to = stepText === undefined ? from : max
    }
    if (from === undefined || to === undefined || from > to) return undefined
    for (let v = from; v <= to; v += step) values.add(v)
  }
  return values
}

const parseCron = (text: string): CronFields | undefined => {
  const parts = text.trim().split(/\s+/)
  if (parts.length !== 5 && parts.length !== 6) return undefined
  const [sec, min, hour, dom, mon, dow] = parts.length === 6 ? parts : ["0", ...parts]
  const seconds = cronField(sec!, 0, 59)
  const minutes = cronField(min!, 0, 59)
  const hours = cronField(hour!, 0, 23)
  const daysOfMonth = dom === "*" ? null : cronField(dom!, 1, 31)
  const months = cronField(mon!, 1, 12, MONTHS, 1)
  const daysOfWeek = dow === "*" ? null : cronField(dow!, 0, 6, DAYS, 0)
  if (!seconds || !minutes || !hours || daysOfMonth === undefined || !months || daysOfWeek === undefined) {
    return undefined
  }
  return { seconds, minutes, hours, daysOfMonth, months, daysOfWeek }
}

/** A timeCycle text as a cycle, or undefined when it is neither a repeating interval nor a cron expression. */
export const parseCycle = (text: string): Cycle | undefined => {
  const trimmed = text.trim()
  const repeat = /^R(\d*)\/(?:([^/]+)\/)?(P[^/]+)$/.exec(trimmed)
  if (repeat !== null) {
    const repetitions = repeat[1] === "" ? null : Number(repeat[1])
    const start = repeat[2] === undefined ? null : parseDateTime(repeat[2])
    if (repetitions === 0 || (start !== null && Number.isNaN(start)) || addIsoDuration(0, repeat[3]!) === null) {
      return undefined
    }
    if (addIsoDuration(0, repeat[3]!)! <= 0) return undefined
    return { kind: "repeat", repetitions, start, interval: repeat[3]! }
  }
  const fields = parseCron(trimmed)
  return fields === undefined ? undefined : { kind: "cron", fields }
}

/** The first second strictly after `after` that the cron expression matches (searching up to five years ahead). */
const nextCron = (fields: CronFields, after: number): number | null => {
  const d = new Date(Math.floor(after / 1000) * 1000 + 1000)
  const limit = after + 5 * 366 * 86_400_000
  const dayMatches = () => {
    const dom = fields.daysOfMonth === null || fields.daysOfMonth.has(d.getUTCDate())
    const dow = fields.daysOfWeek === null || fields.daysOfWeek.has(d.getUTCDay())
    // as in cron: when both day fields are restricted, either may match
    return fields.daysOfMonth !== null && fields.daysOfWeek !== null
      ? fields.daysOfMonth.has(d.getUTCDate()) || fields.daysOfWeek.has(d.getUTCDay())
      : dom && dow
  }
  while (d.getTime() <= limit) {
    if (!fields.months.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1)
      d.setUTCHours(0, 0, 0, 0)
    } else if (!dayMatches()) {
      d.setUTCDate(d.getUTCDate() + 1)
      d.setUTCHours(0, 0, 0, 0)
    } else if (!fields.hours.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0)
    } else if (!fields.minutes.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0)
    } else if (!fields.seconds.has(d.getUTCSeconds())) {
      d.setUTCSeconds(d.getUTCSeconds() + 1, 0)
    } else return d.getTime()
  }
  return null
}

/** When a cycle first fires, counted from `now` (a start date in the past counts from now, by the catch-up rule). */
export const firstOccurrence = (cycle: Cycle, now: number): number | null => {
  if (cycle.kind === "cron") return nextCron(cycle.fields, now)
  if (cycle.start !== null) return cycle.start >= now ? cycle.start : nextRepeat(cycle, cycle.start, now)
  return addIsoDuration(now, cycle.interval)
}

/** The first occurrence after `now` of a repeating interval last due at `last` (steps are bounded by the catch-up). */
const nextRepeat = (cycle: Extract<Cycle, { kind: "repeat" }>, last: number, now: number): number | null => {
  let next = addIsoDuration(last, cycle.interval)
  const step = (addIsoDuration(last, cycle.interval) ?? last) - last
  if (next === null || step <= 0) return null
  // Fixed-length intervals jump at once; calendar ones (months, years) step, a bounded number of times.
  const calendar = /[YM]/.test(cycle.interval.split("T")[0] ?? "")
  if (next <= now && !calendar) next += Math.ceil((now - next + 1) / step) * step
  for (let guard = 0; next !== null && next <= now && guard < 100_000; guard++) {
    next = addIsoDuration(next, cycle.interval)
  }
  return next
}

/**
 * The next occurrence after a fire: `fired` occurrences have fired, the last one due at `lastDue`; null when R<n> is
 * used up. Missed occurrences collapse into the fire just made (the catch-up rule above).
 */
export const nextOccurrence = (cycle: Cycle, lastDue: number, now: number, fired: number): number | null => {
  if (cycle.kind === "cron") return nextCron(cycle.fields, Math.max(lastDue, now))
  if (cycle.repetitions !== null && fired >= cycle.repetitions) return null
  return nextRepeat(cycle, lastDue, Math.max(lastDue, now))
}

// A user task's priority (zeebe:priorityDefinition) and schedule (zeebe:taskSchedule dueDate / followUpDate), as in
// Camunda 8: each a literal or a FEEL expression. A priority is an integer 0..100 (50 when absent); a date is an ISO
// 8601 date-time with its offset. A literal that cannot be one is refused at deploy; an expression whose value cannot
// be one is an incident when the task is created (Camunda's EXTRACT_VALUE_ERROR), never silently defaulted.
import { parseDateTime } from "./CalendarDates.ts"
import { evaluateFeel, feelSyntaxProblem, isExpression } from "./Expressions.ts"
import { isSchedulable } from "./StoredRanges.ts"

export interface TaskSchedule {
  readonly priority: string | null
  readonly dueDate: string | null
  readonly followUpDate: string | null
}

export const noSchedule: TaskSchedule = { priority: null, dueDate: null, followUpDate: null }
export const defaultPriority = 50

export interface ResolvedSchedule {
  readonly priority: number
  readonly dueDate: string | null
  readonly followUpDate: string | null
}

const priorityOf = (value: unknown): number | undefined => {
  const number = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value
  return typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 100 ? number : undefined
}

const dateOf = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  // A date-time with a zone (Z or an offset), not a bare date or a local time.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value.trim())) return undefined
  const millis = parseDateTime(value.trim())
  // Stored in a timestamptz: within the years 1 to 9999 (StoredRanges.ts), not year 0.
  return isSchedulable(millis) ? new Date(millis).toISOString() : undefined
}

const fields = ["priority", "dueDate", "followUpDate"] as const
const expected = {
  priority: "an integer from 0 to 100",
  dueDate: "an ISO 8601 date-time with offset",
  followUpDate: "an ISO 8601 date-time with offset"
}
const read = (field: (typeof fields)[number], value: unknown) =>
  field === "priority" ? priorityOf(value) : dateOf(value)

/** What is wrong with the schedule as deployed (literals that cannot be read, expressions that do not parse). */
export const scheduleProblems = (schedule: TaskSchedule): ReadonlyArray<string> =>
  fields.flatMap((field) => {
    const text = schedule[field]
    if (text === null) return []
    if (isExpression(text)) {
      const syntax = feelSyntaxProblem(text)
      return syntax === null ? [] : [`${field}: ${syntax}`]
    }
    return read(field, text) === undefined ? [`${field} ${JSON.stringify(text)} is not ${expected[field]}`] : []
  })

/** The schedule's values for this task, or the problem that makes it an incident. */
export const resolveSchedule = (
  schedule: TaskSchedule,
  variables: Readonly<Record<string, unknown>>
): { readonly ok: true; readonly value: ResolvedSchedule } | { readonly ok: false; readonly message: string } => {
  const resolved: Record<string, unknown> = {}
  for (const field of fields) {
    const text = schedule[field]
    if (text === null) {
      resolved[field] = field === "priority" ? defaultPriority : null
      continue
    }
    const outcome = evaluateFeel(text, variables)
    if (!outcome.ok) return { ok: false, message: `${field}: ${outcome.message}` }
    if (outcome.value === null && field !== "priority") {
      resolved[field] = null // an expression without a value leaves the date unset
      continue
    }
    const value = read(field, outcome.value)
    if (value === undefined) {
      return { ok: false, message: `${field} ${JSON.stringify(outcome.value)} is not ${expected[field]}` }
    }
    resolved[field] = value
  }
  return { ok: true, value: resolved as unknown as ResolvedSchedule }
}

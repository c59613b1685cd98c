// A date-time query parameter (startedAfter, dueBefore, ...): normalised to UTC ISO, or a 400 naming the parameter —
// also for one outside the years 1 to 9999, which PostgreSQL cannot compare with (bpmn/StoredRanges.ts).
import { Effect } from "effect"
import { parseDateTime } from "../bpmn/CalendarDates.ts"
import { DUE_RANGE, isSchedulable } from "../bpmn/StoredRanges.ts"
import { type ValidationError, validationError } from "../schema/ApiErrors.ts"

export const queryInstant = (
  field: string,
  value: string | undefined
): Effect.Effect<string | undefined, ValidationError> => {
  if (value === undefined) return Effect.succeed(undefined)
  const ms = parseDateTime(value)
  return Number.isNaN(ms)
    ? Effect.fail(validationError(field, `"${value}" is not an ISO 8601 date-time`, "INVALID_DATE_TIME"))
    : !isSchedulable(ms)
    ? Effect.fail(validationError(field, `"${value}" is outside ${DUE_RANGE}`, "OUT_OF_RANGE"))
    : Effect.succeed(new Date(ms).toISOString())
}

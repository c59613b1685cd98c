// Date-times are read as Date.parse reads them, except days the calendar does not have (bpmn/CalendarDates.ts).
import { describe, expect, it } from "vitest"
import { parseDateTime } from "../../src/bpmn/CalendarDates.ts"

describe("reading a date-time", () => {
  it("reads what Date.parse reads, on days the calendar has", () => {
    for (
      const text of [
        "2026-02-28T00:00:00Z",
        "2028-02-29T23:59:59.999Z",
        "2000-02-29T00:00:00+05:30",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2026-12-31"
      ]
    ) {
      expect(parseDateTime(text), text).toBe(Date.parse(text))
      expect(Number.isNaN(parseDateTime(text)), text).toBe(false)
    }
  })

  it("does not read a day the calendar does not have, nor what Date.parse cannot read", () => {
    for (
      const text of [
        "2026-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2026-04-31T00:00:00+02:00",
        "2026-00-10T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "tomorrow"
      ]
    ) {
      expect(parseDateTime(text), text).toBeNaN()
    }
  })
})

// Reading an ISO 8601 date-time the way Date.parse does, except for days the calendar does not have: JavaScript reads
// 2026-02-30 as the 2nd of March, so a timer or a due date given for a day that does not exist would quietly fall on
// another. Such a text reads as NaN here, as any other text Date.parse cannot read.

const DATE_PART = /^\s*([+-]?\d{4,6})-(\d{2})-(\d{2})/

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** The instant in milliseconds, or NaN when the text is no date-time or names a day the calendar does not have. */
export const parseDateTime = (text: string): number => {
  const millis = Date.parse(text)
  const date = DATE_PART.exec(text)
  if (Number.isNaN(millis) || date === null) return millis
  const year = Number(date[1])
  const month = Number(date[2])
  const day = Number(date[3])
  // Years 0–99 are shifted by Date.UTC; the leap rule repeats every 400 years, so any year 400 later has the same days.
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year < 100 ? year + 400 : year, month) ? millis : NaN
}

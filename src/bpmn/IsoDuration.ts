// ISO 8601 durations added to an instant (calendar arithmetic in UTC for years and months).
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

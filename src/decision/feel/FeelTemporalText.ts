/**
 * The rules of FEEL's temporal texts (DMN 1.5 §10.3.4.1, after XML Schema) that feelin's parser does not apply, for
 * `date and time(text)`, `time(text)`, `duration(text)` and the `@"..."` literals alike (a literal is the constructor
 * applied to its text):
 *  - a date-time or time has an offset or a zone id, never both (`13:20:00+02:00@Europe/Paris` is an error);
 *  - offsets lie within ±18:00 (times may give seconds: `+02:45:55`);
 *  - `24:00:00` is the end of the day: the next day's `00:00:00`;
 *  - the offset `-00:00` is UTC, written `Z`;
 *  - seconds are an xs:decimal, which may end in a point (`PT0.S`).
 * Each gives the text to hand to feelin, or null when the text is not a valid one.
 */

/** A date-time text has either an offset or a zone id, not both, and offsets lie within ±18:00. */
const validDateTimeZone = (text: string): boolean => {
  if (/([+-]\d\d:\d\d|Z)@/.test(text)) return false
  // An offset at the end with a `T` before it on its line — /T.*[+-](\d\d):(\d\d)$/, which backtracks in time
  // quadratic in the text's length (a text of many T's).
  const offset = /[+-](\d\d):(\d\d)$/.exec(text)
  if (offset === null) return true
  const before = text.slice(0, offset.index)
  const lineStart = Math.max(...["\n", "\r", "\u2028", "\u2029"].map((eol) => before.lastIndexOf(eol))) + 1
  return before.indexOf("T", lineStart) < 0 || Number(offset[1]) * 60 + Number(offset[2]) <= 18 * 60
}

/** A time text has either an offset (with optional seconds) or a zone id, not both; offsets lie within ±18:00. */
const validTimeZone = (text: string): boolean => {
  if (/([+-]\d\d:\d\d(?::\d\d)?|Z)@/.test(text)) return false
  const offset = /[+-](\d\d):(\d\d)(?::(\d\d))?$/.exec(text)
  return offset === null || Number(offset[1]) * 3600 + Number(offset[2]) * 60 + Number(offset[3] ?? 0) <= 18 * 3600
}

/** 24:00:00 is the end of the day: the next day's 00:00:00. Texts without it pass unchanged. */
const endOfDay = (text: string): string => {
  const at = /^(?:(-?\d{4,})-(\d\d)-(\d\d)T)?24:00:00(?:\.0+)?(.*)$/.exec(text)
  if (at === null) return text
  if (at[1] === undefined) return `00:00:00${at[4]}`
  // The next day by the Gregorian rules, for any year (JS Date would stop at ±275,760).
  let [year, month, day] = [Number(at[1]), Number(at[2]), Number(at[3]) + 1]
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const length = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  if (day > length) [month, day] = [month + 1, 1]
  if (month > 12) [year, month] = [year + 1, 1]
  const pad = (n: number) => String(n).padStart(2, "0")
  return `${year < 0 ? "-" : ""}${String(Math.abs(year)).padStart(4, "0")}-${pad(month)}-${pad(day)}T00:00:00${at[4]}`
}

/** The offset -00:00 (XML Schema: the same as Z) as Z. */
const zeroOffset = (text: string): string => text.replace(/(\d\d:\d\d:\d\d(?:\.\d+)?)-00:00$/, "$1Z")

export const dateTimeText = (text: string): string | null => validDateTimeZone(text) ? zeroOffset(endOfDay(text)) : null

export const timeText = (text: string): string | null => (validTimeZone(text) ? zeroOffset(endOfDay(text)) : null)

export const durationText = (text: string): string => text.replace(/(\d)\.S$/, "$1S")

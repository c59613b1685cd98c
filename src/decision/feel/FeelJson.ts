/**
 * The mapping between FEEL values and plain JSON, for the API.
 *
 * FEEL -> JSON: numbers -> JSON numbers (the nearest double; null if out of range); strings, booleans, null as is;
 * date / time / date and time -> ISO 8601 strings (FEEL's string() form); both duration kinds -> ISO 8601 duration
 * strings; contexts -> objects; lists -> arrays; ranges -> their FEEL text (e.g. "[1..10]"); functions -> null.
 * JSON -> FEEL: numbers become decimals (by their shortest decimal form, so 0.1 is exactly 0.1), deeply in arrays
 * and objects; a string for typeRef date / time / dateTime / dayTimeDuration / yearMonthDuration becomes that
 * temporal value; everything else is passed through.
 */
import { FeelFunctionValue } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { FeelRangeValue } from "./FeelRange.ts"
import { isTemporal, temporalFromText, temporalText } from "./FeelTemporal.ts"
import { feelToString, isContext } from "./FeelValues.ts"

export const toJson = (value: unknown): unknown => {
  if (value === null || value === undefined) return null
  if (value instanceof FeelNumber) {
    const n = value.toNumber()
    return Number.isFinite(n) ? n : null
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null
  if (typeof value === "string" || typeof value === "boolean") return value
  if (Array.isArray(value)) return value.map(toJson)
  if (value instanceof FeelFunctionValue || typeof value === "function") return null
  if (isTemporal(value)) return temporalText(value)
  if (value instanceof FeelRangeValue) return feelToString(value)
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJson(v)]))
  }
  return null
}

const TEMPORAL_CONSTRUCTORS: Readonly<Record<string, string>> = {
  date: "date",
  time: "time",
  dateTime: "date and time",
  "date and time": "date and time",
  dayTimeDuration: "duration",
  yearMonthDuration: "duration",
  "days and time duration": "duration",
  "years and months duration": "duration",
  duration: "duration"
}

/** JSON numbers as decimals, deeply. */
const numbersToDecimals = (value: unknown): unknown => {
  if (typeof value === "number") return FeelNumber.fromNumber(value)
  if (Array.isArray(value)) return value.map(numbersToDecimals)
  if (isContext(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbersToDecimals(v)]))
  return value
}

/** Converts one JSON input value to a FEEL value, guided by the typeRef (local name, any prefix dropped). */
export const fromJson = (value: unknown, typeRef: string | undefined): unknown => {
  if (value === undefined) return null
  const local = typeRef?.replace(/^.*:/, "")
  const ctor = local === undefined ? undefined : TEMPORAL_CONSTRUCTORS[local]
  if (ctor !== undefined && typeof value === "string") return temporalFromText(ctor, value)
  return numbersToDecimals(value)
}

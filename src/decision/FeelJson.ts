/**
 * The mapping between FEEL values and plain JSON, for the API.
 *
 * FEEL -> JSON: numbers -> JSON numbers; strings, booleans, null as is; date / time / date and time ->
 * ISO 8601 strings (FEEL's string() form); both duration kinds -> ISO 8601 duration strings; contexts -> objects;
 * lists -> arrays; ranges -> their FEEL text (e.g. "[1..10]"); functions -> null (not representable).
 * JSON -> FEEL: by the input's typeRef where known: a string for typeRef date / time / dateTime /
 * dayTimeDuration / yearMonthDuration becomes that temporal value; everything else is passed through.
 */
import * as feelin from "feelin";

export const toJson = (value: unknown): unknown => {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof feelin.FeelFunction || typeof value === "function") return null;
  if (
    value instanceof feelin.FeelDate ||
    value instanceof feelin.FeelTime ||
    value instanceof feelin.FeelDateTime ||
    value instanceof feelin.FeelDuration ||
    value instanceof feelin.FeelRange
  ) {
    return String(value);
  }
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJson(v)]));
  }
  return null;
};

const TEMPORAL_CONSTRUCTORS: Readonly<Record<string, string>> = {
  date: "date",
  time: "time",
  dateTime: "date and time",
  "date and time": "date and time",
  dayTimeDuration: "duration",
  yearMonthDuration: "duration",
  "days and time duration": "duration",
  "years and months duration": "duration",
  duration: "duration",
};

/** Converts one JSON input value to a FEEL value, guided by the typeRef (local name, any prefix dropped). */
export const fromJson = (value: unknown, typeRef: string | undefined): unknown => {
  if (value === undefined) return null;
  const local = typeRef?.replace(/^.*:/, "");
  const ctor = local === undefined ? undefined : TEMPORAL_CONSTRUCTORS[local];
  if (ctor !== undefined && typeof value === "string") {
    try {
      return feelin.evaluate(`${ctor}(s)`, { s: value }).value ?? null;
    } catch {
      return null;
    }
  }
  return value;
};

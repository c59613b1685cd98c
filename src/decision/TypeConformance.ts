/**
 * Conformance of values to typeRefs, with the coercions DMN 1.5 §10.3.2.9.4 defines: "a singleton list is
 * converted to its single element" when the type is not a collection, "an element is converted to a singleton
 * list" when it is, and "if the value does not conform, the result is null".
 */
import * as feelin from "feelin";
import type { ItemDefinition } from "./DecisionModel.ts";

const local = (typeRef: string): string => typeRef.replace(/^(feel|FEEL|xsd|tns|ns\d*):/, "").trim();

const isPlainContext = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const conformsBuiltin = (value: unknown, t: string): boolean | undefined => {
  switch (t) {
    case "Any":
      return true;
    case "number":
      return typeof value === "number";
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return value instanceof feelin.FeelDate;
    case "time":
      return value instanceof feelin.FeelTime;
    case "dateTime":
    case "date and time":
      return value instanceof feelin.FeelDateTime;
    case "dayTimeDuration":
    case "days and time duration":
    case "yearMonthDuration":
    case "years and months duration":
    case "duration":
      return value instanceof feelin.FeelDuration;
    case "context":
      return isPlainContext(value);
    case "list":
      return Array.isArray(value);
    default:
      return undefined;
  }
};

/** Returns the value coerced to the typeRef, or null when it does not conform; unknown types pass through. */
export const coerceToType = (value: unknown, typeRef: string | undefined, items: ReadonlyArray<ItemDefinition>, depth = 0): unknown => {
  if (value === null || value === undefined || typeRef === undefined || depth > 20) return value ?? null;
  const t = local(typeRef);
  const builtin = conformsBuiltin(value, t);
  if (builtin !== undefined) {
    if (builtin) return value;
    if (Array.isArray(value) && value.length === 1 && t !== "list") return coerceToType(value[0], typeRef, items, depth + 1);
    return null;
  }
  const def = items.find((d) => d.name === t);
  if (def === undefined) return value;
  return coerceToItem(value, def, items, depth + 1);
};

const coerceToItem = (value: unknown, def: ItemDefinition, items: ReadonlyArray<ItemDefinition>, depth: number): unknown => {
  const element = (v: unknown): unknown => {
    if (v === null) return null;
    if (def.components.length > 0) {
      if (!isPlainContext(v)) return null;
      for (const c of def.components) {
        if (!(c.name in v)) return null;
        const cv = coerceToItem(v[c.name], c, items, depth + 1);
        if (cv === null && v[c.name] !== null) return null;
      }
      return v;
    }
    return def.typeRef === undefined ? v : coerceToType(v, def.typeRef, items, depth + 1);
  };
  if (def.isCollection) {
    const list = Array.isArray(value) ? value : [value];
    const out = list.map(element);
    return out.some((x, i) => x === null && list[i] !== null) ? null : out;
  }
  if (Array.isArray(value)) {
    return value.length === 1 ? element(value[0]) : def.components.length === 0 && def.typeRef === undefined ? value : null;
  }
  return element(value);
};

/**
 * Built-in FEEL functions where feelin departs from DMN 1.5; passed in every evaluation context, which
 * feelin consults before its own built-ins.
 */
import * as feelin from "feelin";

type Parts = { readonly months: number; readonly rest: number };

const parts = (v: unknown): Parts | undefined => {
  if (v instanceof feelin.FeelDate) {
    const d = v.value;
    return { months: d.year * 12 + d.month, rest: d.day * 1e9 };
  }
  if (v instanceof feelin.FeelDateTime) {
    const d = v.value;
    return { months: d.year * 12 + d.month, rest: d.day * 1e9 + d.hour * 3600e3 + d.minute * 60e3 + d.second * 1e3 + d.millisecond };
  }
  return undefined;
};

/**
 * DMN 1.5 §10.3.4.1 years and months duration(from, to): "the years and months duration between from and to",
 * whole months only — the part of a month left over is dropped (feelin keeps it as days).
 */
const yearsAndMonthsDuration = (from: unknown, to: unknown): unknown => {
  const a = parts(from);
  const b = parts(to);
  if (a === undefined || b === undefined) return null;
  let months = b.months - a.months;
  if (months > 0 && b.rest < a.rest) months -= 1;
  if (months < 0 && b.rest > a.rest) months += 1;
  const abs = Math.abs(months);
  const text = `${months < 0 ? "-" : ""}P${Math.floor(abs / 12)}Y${abs % 12}M`;
  return feelin.evaluate("duration(s)", { s: text }).value ?? null;
};

/**
 * DMN 1.5 §10.3.4.7 range(from): "convert from a range string to a range"; the string must be a range literal
 * (or a unary comparison like "< 10"), anything else gives null.
 */
const rangeFromString = (from: unknown): unknown => {
  if (typeof from !== "string") return null;
  const text = from.trim();
  if (!/^(\[|\(|\]|<|>|=)/.test(text)) return null;
  try {
    const v = feelin.evaluate(text, {}).value;
    return v instanceof feelin.FeelRange ? v : null;
  } catch {
    return null;
  }
};

export const FEEL_OVERRIDES: Readonly<Record<string, unknown>> = {
  range: new feelin.FeelFunction(rangeFromString, ["from"]),
  "years and months duration": new feelin.FeelFunction(yearsAndMonthsDuration, ["from", "to"]),
};

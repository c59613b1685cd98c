/**
 * FEEL evaluation for the decision core, on top of feelin.
 *
 * Results are values, never exceptions: a syntax error is `{ _tag: "FeelSyntaxError", position }`.
 */
import * as feelin from "feelin";
import { toJson as toJsonValue } from "./FeelJson.ts";
import { FEEL_OVERRIDES } from "./FeelOverrides.ts";

export type FeelContext = Record<string, unknown>;

export interface FeelSyntaxError {
  readonly _tag: "FeelSyntaxError";
  readonly message: string;
  readonly expression: string;
  /** 0-based character offsets into the expression. */
  readonly position: { readonly from: number; readonly to: number };
}

export interface FeelOk {
  readonly _tag: "FeelOk";
  readonly value: unknown;
  readonly warnings: ReadonlyArray<string>;
}

export type FeelResult = FeelOk | FeelSyntaxError;

const toSyntaxError = (expression: string, error: unknown): FeelSyntaxError | undefined => {
  if (error instanceof feelin.SyntaxError) {
    return { _tag: "FeelSyntaxError", message: error.message, expression, position: error.position };
  }
  return undefined;
};

/** Evaluates a FEEL expression; errors in the expression are values. */
export const evaluateExpression = (expression: string, context: FeelContext): FeelResult => {
  try {
    const result = feelin.evaluate(expression, { ...FEEL_OVERRIDES, ...context });
    return { _tag: "FeelOk", value: result.value ?? null, warnings: result.warnings.map((w) => w.message) };
  } catch (error) {
    const syntax = toSyntaxError(expression, error);
    if (syntax !== undefined) return syntax;
    return { _tag: "FeelOk", value: null, warnings: [String(error)] };
  }
};

/**
 * Evaluates unary tests against the input value `?`. DMN 1.5 §8.3: "-" matches anything;
 * an expression that is not a test is compared with the input for equality.
 */
export const evaluateUnaryTests = (tests: string, input: unknown, context: FeelContext): FeelResult => {
  const text = tests.trim();
  if (text === "" || text === "-") return { _tag: "FeelOk", value: true, warnings: [] };
  try {
    const result = feelin.unaryTest(text, { ...FEEL_OVERRIDES, ...context, "?": input });
    return { _tag: "FeelOk", value: result.value ?? null, warnings: result.warnings.map((w) => w.message) };
  } catch (error) {
    const syntax = toSyntaxError(text, error);
    if (syntax !== undefined) return syntax;
    return { _tag: "FeelOk", value: null, warnings: [String(error)] };
  }
};

/**
 * The API's FEEL evaluation: variables as JSON in, the result as JSON out (see FeelJson.ts for the mapping).
 */
export { toJson, fromJson } from "./FeelJson.ts";
export const evaluateFeel = (expression: string, variables: FeelContext): FeelResult => {
  const r = evaluateExpression(expression, variables);
  return r._tag === "FeelOk" ? { ...r, value: toJsonValue(r.value) } : r;
};

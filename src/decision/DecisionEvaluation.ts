/**
 * Evaluation of decisions, decision services and boxed expressions over a DecisionModel.
 * Pure and deterministic; failures (a Unique table with two matches, an Any table whose matches disagree,
 * an unknown decision) are values.
 */
import * as feelin from "feelin";
import type { Decision, DecisionModel, Expression, TableOutput } from "./DecisionModel.ts";
import { coerceToType } from "./TypeConformance.ts";
import { evaluateExpression, evaluateUnaryTests, type FeelContext } from "./Feel.ts";

export interface DecisionError {
  readonly _tag: "DecisionError";
  readonly code: "HIT_POLICY_VIOLATION" | "NOT_FOUND" | "FEEL_SYNTAX" | "UNSUPPORTED";
  readonly message: string;
  readonly ruleIds?: ReadonlyArray<string>;
}

export interface RuleMatch {
  readonly index: number;
  readonly ruleId: string;
  readonly outputs: Record<string, unknown>;
  readonly annotations: ReadonlyArray<string>;
}

export interface DecisionTrace {
  readonly decisionId: string;
  readonly decisionName: string;
  readonly inputs: ReadonlyArray<{ readonly id: string; readonly label: string; readonly value: unknown }>;
  readonly matchedRules: ReadonlyArray<RuleMatch>;
  readonly result: unknown;
}

export interface EvaluationOk {
  readonly _tag: "EvaluationOk";
  readonly result: unknown;
  /** Required decisions evaluated on the way, in evaluation order, then the decision itself. */
  readonly trace: ReadonlyArray<DecisionTrace>;
}

export type Evaluation = EvaluationOk | DecisionError;

const fail = (code: DecisionError["code"], message: string, ruleIds?: ReadonlyArray<string>): DecisionError =>
  ruleIds === undefined ? { _tag: "DecisionError", code, message } : { _tag: "DecisionError", code, message, ruleIds };

class Abort {
  readonly error: DecisionError;
  constructor(error: DecisionError) {
    this.error = error;
  }
}

const feel = (text: string, ctx: FeelContext): unknown => {
  const r = evaluateExpression(text, ctx);
  if (r._tag === "FeelSyntaxError") {
    throw new Abort(fail("FEEL_SYNTAX", `${r.message} at ${r.position.from}`));
  }
  return r.value;
};

const valueEquals = (a: unknown, b: unknown): boolean => {
  const r = evaluateExpression("a = b", { a, b });
  return r._tag === "FeelOk" && r.value === true;
};

const compareForOrder = (a: unknown, b: unknown): number => {
  const r = evaluateExpression("if a < b then -1 else if a > b then 1 else 0", { a, b });
  return r._tag === "FeelOk" && typeof r.value === "number" ? r.value : 0;
};

/** Output values list order for PRIORITY / OUTPUT ORDER: index of the value in the output's allowed values. */
const priorityOf = (output: TableOutput, value: unknown, ctx: FeelContext): number => {
  if (output.allowedValues === undefined) return Number.MAX_SAFE_INTEGER;
  const allowed = feel(`[${output.allowedValues}]`, ctx);
  if (!Array.isArray(allowed)) return Number.MAX_SAFE_INTEGER;
  const i = allowed.findIndex((v) => valueEquals(v, value));
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
};

interface TableOutcome {
  readonly value: unknown;
  readonly inputs: DecisionTrace["inputs"];
  readonly matched: ReadonlyArray<RuleMatch>;
}

const evaluateTable = (expr: Extract<Expression, { kind: "decisionTable" }>, ctx: FeelContext): TableOutcome => {
  const inputValues = expr.inputs.map((i) => ({ id: i.id, label: i.label, value: feel(i.expression, ctx) }));
  const matched: RuleMatch[] = [];
  expr.rules.forEach((rule, index) => {
    const matches = rule.inputEntries.every((entry, k) => {
      const input = expr.inputs[k];
      const value = inputValues[k]?.value ?? null;
      const r = evaluateUnaryTests(entry, value, { ...ctx, ...(input ? {} : {}) });
      if (r._tag === "FeelSyntaxError") throw new Abort(fail("FEEL_SYNTAX", `${r.message} in rule ${rule.id}`));
      return r.value === true;
    });
    if (!matches) return;
    const outputs: Record<string, unknown> = {};
    expr.outputs.forEach((o, k) => {
      outputs[o.name] = feel(rule.outputEntries[k] ?? "null", ctx);
    });
    matched.push({ index, ruleId: rule.id, outputs, annotations: rule.annotations });
  });
  const single = expr.outputs.length === 1;
  if (matched.length === 0 && expr.outputs.some((o) => o.defaultOutput !== undefined)) {
    const outputs = Object.fromEntries(expr.outputs.map((o) => [o.name, o.defaultOutput === undefined ? null : feel(o.defaultOutput, ctx)]));
    return { value: single ? outputs[expr.outputs[0]?.name ?? ""] : outputs, inputs: inputValues, matched };
  }
  const shape = (m: RuleMatch): unknown => (single ? m.outputs[expr.outputs[0]?.name ?? ""] : m.outputs);
  const byPriority = (list: RuleMatch[]): RuleMatch[] =>
    [...list].sort((a, b) => {
      for (const o of expr.outputs) {
        const d = priorityOf(o, a.outputs[o.name], ctx) - priorityOf(o, b.outputs[o.name], ctx);
        if (d !== 0) return d;
      }
      return a.index - b.index;
    });
  let value: unknown = null;
  switch (expr.hitPolicy) {
    case "UNIQUE":
      // DMN 1.5 §8.2.11: "Unique: no overlap is possible and all rules are disjoint."
      if (matched.length > 1) {
        throw new Abort(
          fail(
            "HIT_POLICY_VIOLATION",
            `Unique hit policy violated: rules ${matched.map((m) => m.ruleId || `#${m.index + 1}`).join(", ")} all match`,
            matched.map((m) => m.ruleId),
          ),
        );
      }
      value = matched[0] ? shape(matched[0]) : null;
      break;
    case "ANY": {
      // "Any: there may be overlap, but all of the matching rules show equal output entries."
      const first = matched[0];
      if (first && matched.some((m) => !valueEquals(shape(m), shape(first)))) {
        throw new Abort(
          fail("HIT_POLICY_VIOLATION", `Any hit policy violated: rules ${matched.map((m) => m.ruleId).join(", ")} disagree`, matched.map((m) => m.ruleId)),
        );
      }
      value = first ? shape(first) : null;
      break;
    }
    case "FIRST":
      value = matched[0] ? shape(matched[0]) : null;
      break;
    case "PRIORITY": {
      const top = byPriority(matched)[0];
      value = top ? shape(top) : null;
      break;
    }
    case "RULE ORDER":
      value = matched.map(shape);
      break;
    case "OUTPUT ORDER":
      value = byPriority(matched).map(shape);
      break;
    case "COLLECT": {
      const values = matched.map(shape);
      switch (expr.aggregation) {
        case undefined:
          value = values;
          break;
        case "COUNT":
          value = values.length;
          break;
        case "SUM":
          value = values.length === 0 ? null : feel("sum(xs)", { xs: values });
          break;
        case "MIN":
          value = values.length === 0 ? null : feel("min(xs)", { xs: values });
          break;
        case "MAX":
          value = values.length === 0 ? null : feel("max(xs)", { xs: values });
          break;
      }
      break;
    }
  }
  return { value, inputs: inputValues, matched };
};

/** Wraps a boxed function definition as a FEEL function usable from FEEL expressions. */
const makeFunction = (expr: Extract<Expression, { kind: "function" }>, closure: FeelContext): feelin.FeelFunction =>
  new feelin.FeelFunction(
    (...args: unknown[]) => {
      const local: FeelContext = { ...closure };
      expr.parameters.forEach((p, i) => {
        local[p.name] = args[i] ?? null;
      });
      return expr.body === undefined ? null : evaluateBoxed(expr.body, local).value;
    },
    expr.parameters.map((p) => p.name),
  );

const evaluateBoxed = (expr: Expression, ctx: FeelContext): TableOutcome => {
  const plain = (value: unknown): TableOutcome => ({ value, inputs: [], matched: [] });
  switch (expr.kind) {
    case "literal":
      return plain(expr.text.trim() === "" ? null : feel(expr.text, ctx));
    case "decisionTable":
      return evaluateTable(expr, ctx);
    case "context": {
      const local: FeelContext = { ...ctx };
      const out: Record<string, unknown> = {};
      for (const entry of expr.entries) {
        const v = evaluateBoxed(entry.value, local).value;
        if (entry.name === undefined) return plain(v);
        local[entry.name] = v;
        out[entry.name] = v;
      }
      return plain(out);
    }
    case "list":
      return plain(expr.items.map((i) => evaluateBoxed(i, ctx).value));
    case "relation":
      return plain(
        expr.rows.map((row) => Object.fromEntries(expr.columns.map((c, i) => [c, row[i] ? evaluateBoxed(row[i], ctx).value : null]))),
      );
    case "invocation": {
      const args: FeelContext = {};
      for (const b of expr.bindings) args[b.name] = b.value ? evaluateBoxed(b.value, ctx).value : null;
      const fn = ctx[expr.callee];
      if (fn instanceof feelin.FeelFunction) {
        return plain(fn.invoke(args) ?? null);
      }
      return plain(feel(`${expr.callee}(${Object.keys(args).map((k, i) => `${k}: __a${i}`).join(", ")})`, {
        ...ctx,
        ...Object.fromEntries(Object.values(args).map((v, i) => [`__a${i}`, v])),
      }));
    }
    case "function":
      return plain(makeFunction(expr, ctx));
    case "unsupported":
      throw new Abort(fail("UNSUPPORTED", `unsupported expression ${expr.type}`));
  }
};

const knowledgeContext = (model: DecisionModel, ids: ReadonlyArray<string>, ctx: FeelContext): FeelContext => {
  const out: FeelContext = {};
  for (const id of ids) {
    const bkm = model.businessKnowledgeModels.find((b) => b.id === id);
    if (bkm !== undefined) {
      const inner = { ...ctx, ...knowledgeContext(model, bkm.requiredKnowledge, ctx) };
      if (bkm.logic?.kind === "function") {
        const logic = bkm.logic;
        // The BKM's own name must be visible inside its body for recursive calls.
        const fn = makeFunction(logic, inner);
        inner[bkm.name] = fn;
        out[bkm.name] = fn;
      }
      continue;
    }
    const service = model.decisionServices.find((s) => s.id === id);
    if (service !== undefined) {
      const params = [...service.inputDecisions.map((d) => nameOfDecision(model, d)), ...service.inputData.map((d) => nameOfInput(model, d))];
      out[service.name] = new feelin.FeelFunction((...args: unknown[]) => {
        const vars: FeelContext = {};
        params.forEach((p, i) => (vars[p] = args[i] ?? null));
        const r = evaluateService(model, service.id, vars);
        return r._tag === "EvaluationOk" ? r.result : null;
      }, params);
    }
  }
  return out;
};

const nameOfDecision = (model: DecisionModel, id: string): string => model.decisions.find((d) => d.id === id)?.name ?? id;
const nameOfInput = (model: DecisionModel, id: string): string => model.inputData.find((d) => d.id === id)?.name ?? id;

const runDecision = (
  model: DecisionModel,
  decision: Decision,
  vars: FeelContext,
  cache: Map<string, unknown>,
  trace: DecisionTrace[],
): unknown => {
  if (cache.has(decision.id)) return cache.get(decision.id);
  const ctx: FeelContext = { ...vars };
  for (const reqId of decision.requiredDecisions) {
    const req = model.decisions.find((d) => d.id === reqId);
    if (req === undefined) throw new Abort(fail("NOT_FOUND", `required decision ${reqId} not found`));
    ctx[req.name] = runDecision(model, req, vars, cache, trace);
  }
  Object.assign(ctx, knowledgeContext(model, decision.requiredKnowledge, ctx));
  const raw = decision.expression === undefined ? { value: null, inputs: [], matched: [] } : evaluateBoxed(decision.expression, ctx);
  // DMN 1.5 §10.3.2.9.4: a decision's value that does not conform to its variable's typeRef becomes null.
  const outcome = { ...raw, value: coerceToType(raw.value, decision.typeRef, model.itemDefinitions) };
  cache.set(decision.id, outcome.value);
  trace.push({ decisionId: decision.id, decisionName: decision.name, inputs: outcome.inputs, matchedRules: outcome.matched, result: outcome.value });
  return outcome.value;
};

const guard = (run: () => EvaluationOk): Evaluation => {
  try {
    return run();
  } catch (error) {
    if (error instanceof Abort) return error.error;
    throw error;
  }
};

/** Evaluates a decision (by id or name) and, first, every decision it requires. */
export const evaluateDecision = (model: DecisionModel, decisionIdOrName: string, variables: FeelContext): Evaluation =>
  guard(() => {
    const decision = model.decisions.find((d) => d.id === decisionIdOrName) ?? model.decisions.find((d) => d.name === decisionIdOrName);
    if (decision === undefined) throw new Abort(fail("NOT_FOUND", `decision ${decisionIdOrName} not found`));
    const trace: DecisionTrace[] = [];
    const result = runDecision(model, decision, variables, new Map(), trace);
    return { _tag: "EvaluationOk", result, trace };
  });

/**
 * Evaluates a decision service: input decisions' values come from the variables (by decision name);
 * the result is the single output decision's value, or a context of all output decisions.
 */
export const evaluateService = (model: DecisionModel, serviceIdOrName: string, variables: FeelContext): Evaluation =>
  guard(() => {
    const service = model.decisionServices.find((s) => s.id === serviceIdOrName) ?? model.decisionServices.find((s) => s.name === serviceIdOrName);
    if (service === undefined) throw new Abort(fail("NOT_FOUND", `decision service ${serviceIdOrName} not found`));
    const cache = new Map<string, unknown>();
    for (const id of service.inputDecisions) cache.set(id, variables[nameOfDecision(model, id)] ?? null);
    const trace: DecisionTrace[] = [];
    const outputs: Record<string, unknown> = {};
    for (const id of service.outputDecisions) {
      const d = model.decisions.find((x) => x.id === id);
      if (d === undefined) throw new Abort(fail("NOT_FOUND", `decision ${id} not found`));
      outputs[d.name] = runDecision(model, d, variables, cache, trace);
    }
    const names = Object.keys(outputs);
    const result = names.length === 1 ? outputs[names[0] ?? ""] : outputs;
    return { _tag: "EvaluationOk", result, trace };
  });

/**
 * The checks a DMN model gets before it is stored, so that a model the evaluator cannot run is refused when it enters
 * (400 naming each faulty element) rather than accepted and failing, or silently answering null, on every evaluation:
 * the same approach as BPMN deployments, which compile their FEEL at deploy time (bpmn/Expressions.ts).
 *
 * - A decision table's hit policy is one of DMN 1.3 §8.2.11's (UNIQUE, FIRST, PRIORITY, ANY, COLLECT, RULE ORDER,
 *   OUTPUT ORDER); an aggregation (SUM, MIN, MAX, COUNT) only with COLLECT.
 * - Requirements form no cycle (RequirementCycles.ts).
 * - Every FEEL text the evaluator compiles parses, in the dialect it is compiled in: input expressions, output
 *   entries, default output entries and literal expressions as expressions, input entries and allowed values as unary
 *   tests; inside contexts, lists, relations, invocation bindings, function (BKM) bodies and the DMN 1.5 boxed
 *   conditional, iterators and filter.
 *
 * Each text is compiled as the evaluator compiles it (feel/Feel.ts, the same cache): a name with special characters
 * ("Customer's age") only parses when the parser is told about it, and at evaluation the scope tells it. Here the
 * scope is every name the model declares (input data, decisions, knowledge models, services, imports, item
 * components, context entries, parameters, columns, outputs) that occurs in the text, each also holding all of them
 * as its members, for paths (`Applicant.Customer's age`): a text that parses in no scope the model can give it is
 * refused, one that might parse at evaluation is not.
 */
import type { Aggregation, DecisionModel, Expression, HitPolicy, ItemDefinition, Problem } from "./DecisionModel.ts"
import { compileExpression, compileUnaryTests, FeelScope } from "./feel/Feel.ts"
import { isSyntaxError } from "./feel/FeelParser.ts"
import { requirementCycleProblems } from "./RequirementCycles.ts"

export const HIT_POLICIES: ReadonlyArray<HitPolicy> = [
  "UNIQUE",
  "FIRST",
  "PRIORITY",
  "ANY",
  "COLLECT",
  "RULE ORDER",
  "OUTPUT ORDER"
]
export const AGGREGATIONS: ReadonlyArray<Aggregation> = ["SUM", "MIN", "MAX", "COUNT"]

/** What is wrong with a table's hit policy and aggregation, by the attribute at fault. */
export const hitPolicyProblems = (
  hitPolicy: unknown,
  aggregation: unknown
): ReadonlyArray<{ readonly attribute: "hitPolicy" | "aggregation"; readonly message: string }> => {
  const problems: Array<{ readonly attribute: "hitPolicy" | "aggregation"; readonly message: string }> = []
  if (!(HIT_POLICIES as ReadonlyArray<unknown>).includes(hitPolicy)) {
    problems.push({
      attribute: "hitPolicy",
      message: `unknown hit policy ${JSON.stringify(hitPolicy)}: must be one of ${HIT_POLICIES.join(", ")}`
    })
  }
  if (aggregation !== undefined) {
    if (!(AGGREGATIONS as ReadonlyArray<unknown>).includes(aggregation)) {
      problems.push({
        attribute: "aggregation",
        message: `unknown aggregation ${JSON.stringify(aggregation)}: must be one of ${AGGREGATIONS.join(", ")}`
      })
    }
    // DMN 1.3 §8.2.11: an aggregation is only defined for the Collect hit policy.
    if (hitPolicy !== "COLLECT") problems.push({ attribute: "aggregation", message: "is only allowed with COLLECT" })
  }
  return problems
}

/** Names with at most this many members each are nested this deep (paths like `a.b.c`); more, less deep. */
const nestedScope = (names: ReadonlyArray<string>): Record<string, unknown> => {
  const depth = names.length <= 12 ? 3 : names.length <= 40 ? 2 : 1
  let level: Record<string, unknown> | null = null
  for (let d = 0; d < depth; d++) {
    const members: Record<string, unknown> = {}
    for (const name of names) members[name] = level
    level = members
  }
  return level ?? {}
}

/** A syntax problem of FEEL text as the evaluator would compile it, given the names the model declares; else null. */
const syntaxProblem = (
  text: string,
  dialect: "expression" | "unaryTests",
  names: ReadonlySet<string>
): string | null => {
  const compile = (scope: FeelScope) =>
    dialect === "expression" ? compileExpression(text, scope) : compileUnaryTests(text, scope)
  try {
    const plain = compile(FeelScope.of({}))
    if (!isSyntaxError(plain)) return null
    const mentioned = [...names].filter((name) => name !== "" && text.includes(name))
    if (mentioned.length > 0 && !isSyntaxError(compile(FeelScope.of(nestedScope(mentioned))))) return null
    return `FEEL syntax error at ${plain.position.from}: ${plain.message}`
  } catch {
    // What the compiler cannot handle here it cannot at evaluation either, where it is reported; never refused.
    return null
  }
}

/** A FEEL expression's syntax problem (null: it parses), the names it may mention given. */
export const expressionProblem = (text: string, names: ReadonlySet<string> = new Set()): string | null =>
  syntaxProblem(text, "expression", names)

/** Unary tests' syntax problem (null: they parse; "" and "-" match anything), the names they may mention given. */
export const unaryTestsProblem = (text: string, names: ReadonlySet<string> = new Set()): string | null =>
  syntaxProblem(text, "unaryTests", names)

const itemNames = (item: ItemDefinition, into: Set<string>): void => {
  into.add(item.name)
  for (const component of item.components) itemNames(component, into)
}

/** Every name an expression declares inside it: context entries, parameters, columns, outputs, iterator variables. */
const expressionNames = (expr: Expression | undefined, into: Set<string>): void => {
  if (expr === undefined) return
  switch (expr.kind) {
    case "decisionTable":
      for (const output of expr.outputs) into.add(output.name)
      return
    case "context":
      for (const entry of expr.entries) {
        if (entry.name !== undefined) into.add(entry.name)
        expressionNames(entry.value, into)
      }
      return
    case "list":
      for (const item of expr.items) expressionNames(item, into)
      return
    case "relation":
      for (const column of expr.columns) into.add(column)
      for (const row of expr.rows) for (const cell of row) expressionNames(cell, into)
      return
    case "invocation":
      for (const binding of expr.bindings) {
        into.add(binding.name)
        expressionNames(binding.value, into)
      }
      return
    case "function":
      for (const parameter of expr.parameters) into.add(parameter.name)
      expressionNames(expr.body, into)
      return
    case "conditional":
      expressionNames(expr.condition, into)
      expressionNames(expr.then, into)
      expressionNames(expr.else, into)
      return
    case "iterator":
      into.add(expr.variable)
      expressionNames(expr.in, into)
      expressionNames(expr.body, into)
      return
    case "filter":
      into.add("item")
      expressionNames(expr.in, into)
      expressionNames(expr.match, into)
      return
    case "literal":
    case "unsupported":
      return
  }
}

/** Every name the model declares, for the parser (see the module comment). */
const modelNames = (model: DecisionModel): ReadonlySet<string> => {
  const names = new Set<string>()
  for (const i of model.imports ?? []) names.add(i.name)
  for (const input of model.inputData) names.add(input.name)
  for (const decision of model.decisions) {
    names.add(decision.name)
    expressionNames(decision.expression, names)
  }
  for (const bkm of model.businessKnowledgeModels) {
    names.add(bkm.name)
    expressionNames(bkm.logic, names)
  }
  for (const service of model.decisionServices) names.add(service.name)
  for (const item of model.itemDefinitions) itemNames(item, names)
  return names
}

const label = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)

/** The problems of one boxed expression, each at `path` and below it. */
const expressionProblems = (
  expr: Expression | undefined,
  path: string,
  names: ReadonlySet<string>,
  add: (path: string, message: string) => void
): void => {
  if (expr === undefined) return
  const check = (text: string, at: string, what: string) => {
    const problem = expressionProblem(text, names)
    if (problem !== null) add(at, `${what}: ${problem}`)
  }
  const nested = (e: Expression | undefined, at: string) => expressionProblems(e, at, names, add)
  switch (expr.kind) {
    case "literal":
      // An empty literal expression is null (BoxedExpressionEvaluation.ts).
      if (expr.text.trim() !== "") check(expr.text, path, "literal expression")
      return
    case "decisionTable": {
      for (const problem of hitPolicyProblems(expr.hitPolicy, expr.aggregation)) {
        add(`${path}.${problem.attribute}`, problem.message)
      }
      const column = (k: number) => `column ${k + 1}${expr.inputs[k] ? ` (${label(expr.inputs[k].label)})` : ""}`
      expr.inputs.forEach((input, k) => {
        check(input.expression, `${path}.inputs[${k}].inputExpression`, `input expression of ${column(k)}`)
      })
      expr.outputs.forEach((output, k) => {
        if (output.defaultOutput !== undefined) {
          check(output.defaultOutput, `${path}.outputs[${k}].defaultOutputEntry`, `default output of ${output.name}`)
        }
        // The output values order the matches of a Priority or Output order table (DecisionTableEvaluation.ts).
        if (
          output.allowedValues !== undefined && (expr.hitPolicy === "PRIORITY" || expr.hitPolicy === "OUTPUT ORDER")
        ) {
          check(`[${output.allowedValues}]`, `${path}.outputs[${k}].outputValues`, `output values of ${output.name}`)
        }
      })
      expr.rules.forEach((rule, r) => {
        const ruleName = rule.id === "" ? `#${r + 1}` : rule.id
        const at = `${path}.rules[${ruleName}]`
        rule.inputEntries.forEach((entry, k) => {
          const problem = unaryTestsProblem(entry, names)
          if (problem !== null) add(`${at}.inputEntries[${k}]`, `rule ${ruleName}, input ${column(k)}: ${problem}`)
        })
        rule.outputEntries.forEach((entry, k) => {
          const output = expr.outputs[k]?.name ?? `${k + 1}`
          check(entry, `${at}.outputEntries[${k}]`, `rule ${ruleName}, output ${label(output)}`)
        })
      })
      return
    }
    case "context":
      expr.entries.forEach((entry, k) => nested(entry.value, `${path}.contextEntries[${entry.name ?? `#${k + 1}`}]`))
      return
    case "list":
      expr.items.forEach((item, k) => nested(item, `${path}.items[${k}]`))
      return
    case "relation":
      expr.rows.forEach((row, r) =>
        row.forEach((cell, c) => nested(cell, `${path}.rows[${r}][${expr.columns[c] ?? `#${c + 1}`}]`))
      )
      return
    case "invocation":
      for (const binding of expr.bindings) nested(binding.value, `${path}.bindings[${binding.name}]`)
      return
    case "function":
      // Only FEEL and Java functions run their body (a Java one's is a context of two strings).
      if (expr.functionKind === "FEEL" || expr.functionKind === "Java") nested(expr.body, `${path}.body`)
      return
    case "conditional":
      nested(expr.condition, `${path}.if`)
      nested(expr.then, `${path}.then`)
      nested(expr.else, `${path}.else`)
      return
    case "iterator":
      nested(expr.in, `${path}.in`)
      nested(expr.body, `${path}.${expr.iterator === "for" ? "return" : "satisfies"}`)
      return
    case "filter":
      nested(expr.in, `${path}.in`)
      nested(expr.match, `${path}.match`)
      return
    case "unsupported":
      return
  }
}

const allowedValuesProblems = (
  item: ItemDefinition,
  path: string,
  names: ReadonlySet<string>,
  add: (path: string, message: string) => void
): void => {
  if (item.allowedValues !== undefined && item.allowedValues.trim() !== "") {
    const problem = unaryTestsProblem(item.allowedValues, names)
    if (problem !== null) add(`${path}.allowedValues`, `allowed values of ${item.name}: ${problem}`)
  }
  for (const component of item.components) {
    allowedValuesProblems(component, `${path}.itemComponents[${component.name}]`, names, add)
  }
}

/**
 * Every problem of the model that would make its evaluation fail or silently answer null, each at the element it is
 * in: `decisions[<id>]...`, `businessKnowledgeModels[<id>]...`, `itemDefinitions[<name>]...`.
 */
export const decisionModelProblems = (model: DecisionModel): ReadonlyArray<Problem> => {
  const problems: Problem[] = []
  const add = (path: string, message: string) => problems.push({ path, message })
  const names = modelNames(model)
  for (const decision of model.decisions) {
    const at = `decisions[${decision.id || decision.name}]`
    const logic = decision.expression
    expressionProblems(logic, logic?.kind === "literal" ? `${at}.literalExpression` : at, names, add)
  }
  for (const bkm of model.businessKnowledgeModels) {
    expressionProblems(bkm.logic, `businessKnowledgeModels[${bkm.id || bkm.name}]`, names, add)
  }
  for (const item of model.itemDefinitions) allowedValuesProblems(item, `itemDefinitions[${item.name}]`, names, add)
  problems.push(...requirementCycleProblems(model))
  return problems
}

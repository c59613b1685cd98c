/**
 * The JSON decision-table format, its validator and its conversion to DMN 1.3 XML.
 *
 * ```json
 * { "id": "approval", "name": "Approval", "hitPolicy": "UNIQUE", "aggregation": "SUM"?,
 *   "inputs":  [{ "id"?: "in1", "label"?: "Age", "expression": "age", "typeRef"?: "number" }],
 *   "outputs": [{ "id"?: "out1", "name": "status", "typeRef"?: "string", "allowedValues"?: ["\"OK\"", "\"NO\""] }],
 *   "rules":   [{ "id"?: "r1", "inputEntries": [">= 18"], "outputEntries": ["\"OK\""], "annotations"?: ["adult"] }] }
 * ```
 * Entries are FEEL text: input entries are unary tests ("-" matches anything), output entries expressions.
 * hitPolicy: UNIQUE | ANY | PRIORITY | FIRST | OUTPUT ORDER | RULE ORDER | COLLECT; aggregation only with COLLECT.
 */
import { DmnModdle } from "dmn-moddle"
import { MAX_INDEXED_NAME } from "../bpmn/StoredRanges.ts"
import type { Aggregation, DecisionModel, HitPolicy, Problem, Result } from "./DecisionModel.ts"
import { tableSizeProblems } from "./DecisionTableSize.ts"
import { AGGREGATIONS, expressionProblem, HIT_POLICIES, unaryTestsProblem } from "./DmnModelCheck.ts"

export interface JsonTableInput {
  readonly id?: string
  readonly label?: string
  readonly expression: string
  readonly typeRef?: string
}

export interface JsonTableOutput {
  readonly id?: string
  readonly name: string
  readonly typeRef?: string
  /** FEEL literals, e.g. `"\"OK\""`; their order is the priority order for PRIORITY / OUTPUT ORDER. */
  readonly allowedValues?: ReadonlyArray<string>
}

export interface JsonTableRule {
  readonly id?: string
  readonly inputEntries: ReadonlyArray<string>
  readonly outputEntries: ReadonlyArray<string>
  readonly annotations?: ReadonlyArray<string>
}

export interface JsonDecisionTable {
  readonly id: string
  readonly name?: string
  readonly hitPolicy?: HitPolicy
  readonly aggregation?: Aggregation
  readonly inputs: ReadonlyArray<JsonTableInput>
  readonly outputs: ReadonlyArray<JsonTableOutput>
  readonly rules: ReadonlyArray<JsonTableRule>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string")

/** Validates an untrusted JSON value as a decision table; every problem is listed with its JSON path. */
export const validateDecisionTableJson = (json: unknown): ReadonlyArray<Problem> => {
  const problems: Problem[] = []
  const add = (path: string, message: string) => problems.push({ path, message })
  if (!isObject(json)) return [{ path: "", message: "must be an object" }]
  if (typeof json["id"] !== "string" || json["id"] === "") add("id", "must be a non-empty string")
  else if (json["id"].length > MAX_INDEXED_NAME) add("id", `must be at most ${MAX_INDEXED_NAME} characters`)
  if (json["hitPolicy"] !== undefined && !(HIT_POLICIES as ReadonlyArray<unknown>).includes(json["hitPolicy"])) {
    add("hitPolicy", `must be one of ${HIT_POLICIES.join(", ")}`)
  }
  if (json["aggregation"] !== undefined) {
    if (!(AGGREGATIONS as ReadonlyArray<unknown>).includes(json["aggregation"])) {
      add("aggregation", `must be one of ${AGGREGATIONS.join(", ")}`)
    }
    // DMN 1.5 §8.2.11: aggregation is only defined for the Collect hit policy.
    if (json["hitPolicy"] !== "COLLECT") add("aggregation", "is only allowed with hit policy COLLECT")
  }
  const inputs = json["inputs"]
  const outputs = json["outputs"]
  const rules = json["rules"]
  if (!Array.isArray(inputs)) add("inputs", "must be an array")
  else {
    inputs.forEach((i, k) => {
      if (!isObject(i)) return add(`inputs[${k}]`, "must be an object")
      if (typeof i["expression"] !== "string" || i["expression"].trim() === "") {
        add(`inputs[${k}].expression`, "must be a non-empty FEEL expression")
      }
    })
  }
  if (!Array.isArray(outputs) || outputs.length === 0) add("outputs", "must be a non-empty array")
  else {
    const names = new Set<string>()
    outputs.forEach((o, k) => {
      if (!isObject(o)) return add(`outputs[${k}]`, "must be an object")
      if (typeof o["name"] !== "string" || o["name"] === "") add(`outputs[${k}].name`, "must be a non-empty string")
      else if (names.has(o["name"])) add(`outputs[${k}].name`, `duplicate output name ${o["name"]}`)
      else names.add(o["name"])
      if (o["allowedValues"] !== undefined && !isStringArray(o["allowedValues"])) {
        add(`outputs[${k}].allowedValues`, "must be an array of FEEL literals")
      }
    })
  }
  if (!Array.isArray(rules)) add("rules", "must be an array")
  else {
    rules.forEach((r, k) => {
      if (!isObject(r)) return add(`rules[${k}]`, "must be an object")
      if (!isStringArray(r["inputEntries"])) add(`rules[${k}].inputEntries`, "must be an array of strings")
      else if (Array.isArray(inputs) && r["inputEntries"].length !== inputs.length) {
        add(
          `rules[${k}].inputEntries`,
          `has ${r["inputEntries"].length} entries, the table has ${inputs.length} inputs`
        )
      }
      if (!isStringArray(r["outputEntries"])) add(`rules[${k}].outputEntries`, "must be an array of strings")
      else if (Array.isArray(outputs) && r["outputEntries"].length !== outputs.length) {
        add(
          `rules[${k}].outputEntries`,
          `has ${r["outputEntries"].length} entries, the table has ${outputs.length} outputs`
        )
      }
      if (r["annotations"] !== undefined && !isStringArray(r["annotations"])) {
        add(`rules[${k}].annotations`, "must be an array of strings")
      }
    })
  }
  // Cheap before costly: the size of the document it becomes, then ids, then FEEL.
  if (problems.length === 0) problems.push(...tableSizeProblems(json as unknown as JsonDecisionTable))
  if (problems.length === 0) problems.push(...idProblems(json as unknown as JsonDecisionTable))
  if (problems.length === 0) problems.push(...feelProblems(json as unknown as JsonDecisionTable))
  return problems
}

/**
 * FEEL that does not parse, at the field it is in: the evaluation of the table would fail on it (DmnModelCheck.ts
 * checks the same texts of the DMN document the table becomes, by DMN element).
 */
const feelProblems = (table: JsonDecisionTable): ReadonlyArray<Problem> => {
  const problems: Problem[] = []
  const add = (path: string, problem: string | null) => {
    if (problem !== null) problems.push({ path, message: problem })
  }
  table.inputs.forEach((i, k) => add(`inputs[${k}].expression`, expressionProblem(i.expression)))
  table.outputs.forEach((o, k) =>
    (o.allowedValues ?? []).forEach((v, j) => add(`outputs[${k}].allowedValues[${j}]`, expressionProblem(v)))
  )
  table.rules.forEach((r, k) => {
    r.inputEntries.forEach((e, j) => add(`rules[${k}].inputEntries[${j}]`, unaryTestsProblem(e)))
    r.outputEntries.forEach((e, j) => add(`rules[${k}].outputEntries[${j}]`, expressionProblem(e)))
  })
  return problems
}

/**
 * The XML ids of the DMN document a table becomes (see decisionTableToDmnXml), in document order: each with what it
 * names and, when the table gives it, the field it comes from. Each id must be unique in the document: dmn-moddle drops
 * an element whose id an earlier one has, so a rule with an input's id would be lost on re-import.
 */
const documentIds = (
  table: JsonDecisionTable
): Array<{ readonly id: string; readonly what: string; readonly field?: string }> => [
  { id: `${table.id}_definitions`, what: "the DMN definitions (generated)" },
  { id: table.id, what: "the decision", field: "id" },
  { id: `${table.id}_table`, what: "the decision table (generated)" },
  ...table.inputs.flatMap((i, k) => [
    i.id === undefined
      ? { id: `Input_${k + 1}`, what: `inputs[${k}] (generated)` }
      : { id: i.id, what: `inputs[${k}]`, field: `inputs[${k}].id` },
    { id: `InputExpression_${k + 1}`, what: `the expression of inputs[${k}] (generated)` }
  ]),
  ...table.outputs.map((o, k) =>
    o.id === undefined
      ? { id: `Output_${k + 1}`, what: `outputs[${k}] (generated)` }
      : { id: o.id, what: `outputs[${k}]`, field: `outputs[${k}].id` }
  ),
  ...table.rules.flatMap((r, k) => [
    r.id === undefined
      ? { id: `Rule_${k + 1}`, what: `rules[${k}] (generated)` }
      : { id: r.id, what: `rules[${k}]`, field: `rules[${k}].id` },
    ...r.inputEntries.map((_, j) => ({
      id: `Rule_${k + 1}_in_${j + 1}`,
      what: `rules[${k}].inputEntries[${j}] (generated)`
    })),
    ...r.outputEntries.map((_, j) => ({
      id: `Rule_${k + 1}_out_${j + 1}`,
      what: `rules[${k}].outputEntries[${j}] (generated)`
    }))
  ])
]

/** Ids that are not non-empty strings, and ids two elements of the table's DMN document would share. */
const idProblems = (table: JsonDecisionTable): ReadonlyArray<Problem> => {
  const problems: Problem[] = []
  const given = [
    ...table.inputs.map((i, k) => [i.id, `inputs[${k}].id`] as const),
    ...table.outputs.map((o, k) => [o.id, `outputs[${k}].id`] as const),
    ...table.rules.map((r, k) => [r.id, `rules[${k}].id`] as const)
  ]
  for (const [id, field] of given) {
    if (id !== undefined && (typeof id !== "string" || id === "")) {
      problems.push({ path: field, message: "must be a non-empty string" })
    }
  }
  if (problems.length > 0) return problems
  const first = new Map<string, { readonly what: string; readonly field?: string }>()
  for (const entry of documentIds(table)) {
    const earlier = first.get(entry.id)
    if (earlier === undefined) {
      first.set(entry.id, entry)
      continue
    }
    // Named at the field the caller wrote: the later one's, else the earlier one's (a generated id came second).
    const field = entry.field ?? earlier.field
    const other = entry.field === undefined ? entry.what : earlier.what
    if (field !== undefined) {
      problems.push({
        path: field,
        message: `id ${JSON.stringify(entry.id)} is also the id of ${other}; ids must be unique`
      })
    }
  }
  return problems
}

/** Validates and narrows untrusted JSON to a JsonDecisionTable. */
export const decisionTableFromJson = (json: unknown): Result<JsonDecisionTable, ReadonlyArray<Problem>> => {
  const problems = validateDecisionTableJson(json)
  return problems.length === 0 ? { ok: true, value: json as JsonDecisionTable } : { ok: false, error: problems }
}

/** The table as an in-memory DecisionModel with one decision (no XML round trip needed to evaluate it). */
export const decisionTableToModel = (table: JsonDecisionTable): DecisionModel => ({
  name: table.name ?? table.id,
  namespace: `urn:flowcore:decision:${table.id}`,
  decisions: [
    {
      id: table.id,
      name: table.name ?? table.id,
      typeRef: undefined,
      requiredDecisions: [],
      requiredInputs: [],
      requiredKnowledge: [],
      expression: {
        kind: "decisionTable",
        hitPolicy: table.hitPolicy ?? "UNIQUE",
        aggregation: table.aggregation,
        inputs: table.inputs.map((i, k) => ({
          id: i.id ?? `Input_${k + 1}`,
          label: i.label ?? i.expression,
          expression: i.expression,
          typeRef: i.typeRef
        })),
        outputs: table.outputs.map((o, k) => ({
          id: o.id ?? `Output_${k + 1}`,
          name: o.name,
          typeRef: o.typeRef,
          allowedValues: o.allowedValues === undefined ? undefined : o.allowedValues.join(","),
          defaultOutput: undefined
        })),
        rules: table.rules.map((r, k) => ({
          id: r.id ?? `Rule_${k + 1}`,
          inputEntries: r.inputEntries,
          outputEntries: r.outputEntries,
          annotations: r.annotations ?? []
        }))
      }
    }
  ],
  decisionServices: [],
  inputData: [],
  businessKnowledgeModels: [],
  itemDefinitions: []
})

/** Writes the table as DMN 1.3 XML (one decision holding the table) through dmn-moddle. */
export const decisionTableToDmnXml = async (table: JsonDecisionTable): Promise<string> => {
  const m = new DmnModdle()
  // Each element with only the properties the table gives.
  const create = (type: string, properties: Record<string, unknown>) =>
    m.create(type, Object.fromEntries(Object.entries(properties).filter(([, v]) => v !== undefined)))
  const dt = create("dmn:DecisionTable", {
    id: `${table.id}_table`,
    hitPolicy: table.hitPolicy ?? "UNIQUE",
    aggregation: table.aggregation,
    input: table.inputs.map((i, k) =>
      create("dmn:InputClause", {
        id: i.id ?? `Input_${k + 1}`,
        label: i.label,
        inputExpression: create("dmn:LiteralExpression", {
          id: `InputExpression_${k + 1}`,
          typeRef: i.typeRef,
          text: i.expression
        })
      })
    ),
    output: table.outputs.map((o, k) =>
      create("dmn:OutputClause", {
        id: o.id ?? `Output_${k + 1}`,
        name: o.name,
        typeRef: o.typeRef,
        outputValues: o.allowedValues === undefined
          ? undefined
          : m.create("dmn:UnaryTests", { text: o.allowedValues.join(",") })
      })
    ),
    rule: table.rules.map((r, k) =>
      m.create("dmn:DecisionRule", {
        id: r.id ?? `Rule_${k + 1}`,
        inputEntry: r.inputEntries.map((e, j) =>
          m.create("dmn:UnaryTests", { id: `Rule_${k + 1}_in_${j + 1}`, text: e })
        ),
        outputEntry: r.outputEntries.map((e, j) =>
          m.create("dmn:LiteralExpression", { id: `Rule_${k + 1}_out_${j + 1}`, text: e })
        ),
        annotationEntry: (r.annotations ?? []).map((a) => m.create("dmn:RuleAnnotation", { text: a }))
      })
    )
  })
  const decision = m.create("dmn:Decision", { id: table.id, name: table.name ?? table.id, decisionLogic: dt })
  const definitions = m.create("dmn:Definitions", {
    id: `${table.id}_definitions`,
    name: table.name ?? table.id,
    namespace: `urn:flowcore:decision:${table.id}`,
    drgElement: [decision]
  })
  const { xml } = await m.toXML(definitions, { format: true })
  return xml as string
}

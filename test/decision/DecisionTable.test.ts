import { describe, expect, it } from "vitest"
import { evaluateDecision } from "../../src/decision/DecisionEvaluation.ts"
import type { Aggregation, HitPolicy } from "../../src/decision/DecisionModel.ts"
import {
  decisionTableFromJson,
  decisionTableToDmnXml,
  decisionTableToModel,
  type JsonDecisionTable,
  validateDecisionTableJson
} from "../../src/decision/DecisionTableJson.ts"
import { importDmnXml } from "../../src/decision/DmnXmlImport.ts"
import { toJson } from "../../src/decision/feel/FeelJson.ts"

const table = (hitPolicy: HitPolicy, aggregation?: Aggregation): JsonDecisionTable => ({
  id: "discount",
  name: "Discount",
  hitPolicy,
  ...(aggregation ? { aggregation } : {}),
  inputs: [{ expression: "amount", typeRef: "number" }],
  outputs: [{ name: "rate", typeRef: "number", allowedValues: ["10", "5", "0"] }],
  rules: [
    { id: "r1", inputEntries: [">= 100"], outputEntries: ["5"] },
    { id: "r2", inputEntries: [">= 1000"], outputEntries: ["10"] },
    { id: "r3", inputEntries: ["-"], outputEntries: ["0"], annotations: ["fallback"] }
  ]
})

// Results hold decimals; compared here in their JSON form, as the API returns them.
const run = (t: JsonDecisionTable, amount: number) => {
  const r = evaluateDecision(decisionTableToModel(t), t.id, { amount })
  return r._tag === "EvaluationOk"
    ? {
      ...r,
      result: toJson(r.result),
      trace: r.trace.map((s) => ({ ...s, inputs: s.inputs.map((i) => ({ ...i, value: toJson(i.value) })) }))
    }
    : r
}

describe("hit policies", () => {
  it("FIRST takes the first matching rule", () => {
    expect(run(table("FIRST"), 2000)).toMatchObject({ _tag: "EvaluationOk", result: 5 })
  })
  it("PRIORITY takes the output earliest in the allowed values", () => {
    expect(run(table("PRIORITY"), 2000)).toMatchObject({ result: 10 })
  })
  it("RULE ORDER and OUTPUT ORDER list all matches", () => {
    expect(run(table("RULE ORDER"), 2000)).toMatchObject({ result: [5, 10, 0] })
    expect(run(table("OUTPUT ORDER"), 2000)).toMatchObject({ result: [10, 5, 0] })
  })
  it("COLLECT with and without aggregation", () => {
    expect(run(table("COLLECT"), 2000)).toMatchObject({ result: [5, 10, 0] })
    expect(run(table("COLLECT", "SUM"), 2000)).toMatchObject({ result: 15 })
    expect(run(table("COLLECT", "MIN"), 2000)).toMatchObject({ result: 0 })
    expect(run(table("COLLECT", "MAX"), 2000)).toMatchObject({ result: 10 })
    expect(run(table("COLLECT", "COUNT"), 2000)).toMatchObject({ result: 3 })
  })
  it("UNIQUE with two matches is an error naming the rules", () => {
    const r = run(table("UNIQUE"), 200)
    expect(r).toMatchObject({ _tag: "DecisionError", code: "HIT_POLICY_VIOLATION", ruleIds: ["r1", "r3"] })
  })
  it("ANY with disagreeing matches is an error", () => {
    expect(run(table("ANY"), 200)).toMatchObject({ _tag: "DecisionError", ruleIds: ["r1", "r3"] })
  })
  it("traces matched rules and inputs", () => {
    const r = run(table("FIRST"), 50)
    expect(r).toMatchObject({
      trace: [{
        decisionId: "discount",
        inputs: [{ value: 50 }],
        matchedRules: [{ index: 2, ruleId: "r3", annotations: ["fallback"] }]
      }]
    })
  })
})

describe("JSON table format", () => {
  it("lists every problem with its path", () => {
    const problems = validateDecisionTableJson({
      id: "",
      hitPolicy: "SOMETIMES",
      inputs: [{}],
      outputs: [],
      rules: [{ inputEntries: [], outputEntries: ["1"] }]
    })
    expect(problems.map((p) => p.path)).toEqual([
      "id",
      "hitPolicy",
      "inputs[0].expression",
      "outputs",
      "rules[0].inputEntries",
      "rules[0].outputEntries"
    ])
    expect(decisionTableFromJson(table("FIRST"))).toMatchObject({ ok: true })
  })
  it("refuses ids two elements of the table's DMN document would share, naming the field", () => {
    const t = table("FIRST")
    const paths = (changed: Record<string, unknown>) =>
      validateDecisionTableJson({ ...t, ...changed }).map((p) => `${p.path}: ${p.message}`)
    const withIds = {
      inputs: t.inputs.map((i, k) => ({ ...i, id: `in${k}` })),
      outputs: t.outputs.map((o, k) => ({ ...o, id: `out${k}` }))
    }
    // the rules with these ids (undefined: none given, the conversion generates Rule_<n>)
    const rules = (ids: ReadonlyArray<string | undefined>) =>
      t.rules.map(({ id: _, ...r }, k) => (ids[k] === undefined ? r : { ...r, id: ids[k] }))
    // a rule with an input's id, an output's id, another rule's id, the decision's id
    expect(paths({ ...withIds, rules: rules(["in0"]) })).toEqual([
      "rules[0].id: id \"in0\" is also the id of inputs[0]; ids must be unique"
    ])
    expect(paths({ ...withIds, rules: rules([undefined, "out0"]) })).toEqual([
      "rules[1].id: id \"out0\" is also the id of outputs[0]; ids must be unique"
    ])
    expect(paths({ ...withIds, rules: rules(["r", undefined, "r"]) })).toEqual([
      "rules[2].id: id \"r\" is also the id of rules[0]; ids must be unique"
    ])
    expect(paths({ ...withIds, rules: rules(["discount"]) })).toEqual([
      "rules[0].id: id \"discount\" is also the id of the decision; ids must be unique"
    ])
    // an input with an output's id; ids the conversion generates (Rule_2 for the second rule, InputExpression_1)
    expect(paths({ outputs: [{ ...t.outputs[0]!, id: "x" }], inputs: [{ ...t.inputs[0]!, id: "x" }] })).toEqual([
      "outputs[0].id: id \"x\" is also the id of inputs[0]; ids must be unique"
    ])
    expect(paths({ rules: rules(["Rule_2"]) })).toEqual([
      "rules[0].id: id \"Rule_2\" is also the id of rules[1] (generated); ids must be unique"
    ])
    expect(paths({ rules: rules(["InputExpression_1"]) })).toEqual([
      "rules[0].id: id \"InputExpression_1\" is also the id of the expression of inputs[0] (generated); ids must be unique"
    ])
    expect(paths({ rules: rules([""]) })).toEqual(["rules[0].id: must be a non-empty string"])
    expect(paths({ ...withIds, rules: rules(["a", "b", "c"]) })).toEqual([])
  })
  it("round-trips JSON -> DMN XML -> import with the same evaluation", async () => {
    const t = table("PRIORITY")
    const xml = await decisionTableToDmnXml(t)
    expect(xml).toContain("https://www.omg.org/spec/DMN/20191111/MODEL/")
    const imported = await importDmnXml(xml)
    if (!imported.ok) throw new Error(JSON.stringify(imported.error))
    for (const amount of [0, 150, 5000]) {
      const a = evaluateDecision(imported.value, "discount", { amount })
      const b = run(t, amount)
      expect(a._tag === "EvaluationOk" && toJson(a.result)).toEqual(b._tag === "EvaluationOk" && b.result)
    }
  })
  it("rejects unreadable XML as a problem list", async () => {
    expect(await importDmnXml("<nope")).toMatchObject({ ok: false })
    // an element with an id an earlier element has would be dropped: refused
    const xml = (await decisionTableToDmnXml(table("FIRST"))).replace("id=\"r2\"", "id=\"Input_1\"")
    expect(await importDmnXml(xml)).toEqual({
      ok: false,
      error: [{ path: "Input_1", message: "duplicate id \"Input_1\": ids must be unique" }]
    })
  })
})

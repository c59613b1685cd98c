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
import { toJson } from "../../src/decision/FeelJson.ts"

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
      "/id",
      "/hitPolicy",
      "/inputs/0/expression",
      "/outputs",
      "/rules/0/inputEntries",
      "/rules/0/outputEntries"
    ])
    expect(decisionTableFromJson(table("FIRST"))).toMatchObject({ ok: true })
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
  })
})

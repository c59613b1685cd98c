// Decisions over HTTP: JSON decision tables and DMN imports, versions per key, evaluation (with trace), decision
// services, hit-policy violations, FEEL, and the business rule task using the latest version.
import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.ts"
import { fixture, givenTenant } from "../support/Scenario.ts"

const riskTable = (hitPolicy = "UNIQUE", extraRule?: Record<string, unknown>) => ({
  id: "risk",
  name: "Risk",
  hitPolicy,
  inputs: [{ id: "in_amount", label: "Amount", expression: "amount", typeRef: "number" }],
  outputs: [{ id: "out_level", name: "level", typeRef: "string" }],
  rules: [
    { id: "low", inputEntries: ["< 1000"], outputEntries: ["\"low\""] },
    { id: "high", inputEntries: [">= 1000"], outputEntries: ["\"high\""] },
    ...(extraRule === undefined ? [] : [extraRule])
  ]
})

describe("decision tables", () => {
  it("deploys JSON, evaluates, keeps versions per key, and exports DMN XML that re-imports to the same result", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = (await owner.post("/decisions", riskTable())).ok(201)
    expect(v1).toMatchObject({
      key: "risk",
      name: "Risk",
      version: 1,
      kind: "DECISION_TABLE",
      hitPolicy: "UNIQUE",
      format: "JSON_TABLE"
    })
    expect((await owner.post(`/decisions/${v1.id}/evaluate`, { variables: { amount: 50 } })).ok()).toMatchObject({
      decisionKey: "risk",
      version: 1,
      result: "low"
    })
    const v2 = (await owner.post("/decisions", riskTable())).ok(201)
    expect(v2.version).toBe(2)
    expect((await owner.get("/decisions?key=risk")).ok().items.map((d: { version: number }) => d.version)).toEqual([
      2,
      1
    ])
    const detail = (await owner.get(`/decisions/${v1.id}`)).ok()
    expect(detail.table).toMatchObject({ id: "risk", hitPolicy: "UNIQUE" })
    const { xml } = (await owner.get(`/decisions/${v1.id}/xml`)).ok()
    expect(xml).toContain("decisionTable")
    const model = (await owner.call("POST", "/decisions/import", { rawBody: xml, contentType: "application/xml" })).ok(
      201
    )
    const reimported = model.decisions.find((d: { key: string }) => d.key === "risk")
    expect(reimported.version).toBe(3)
    expect((await owner.post(`/decisions/${reimported.id}/evaluate`, { variables: { amount: 5000 } })).ok().result)
      .toBe("high")
  })

  it("reports which rules matched, with input values, in the trace", async () => {
    const owner = await (await givenTenant()).owner()
    const decision = (await owner.post("/decisions", riskTable())).ok(201)
    const traced = (await owner.post(`/decisions/${decision.id}/evaluate-with-trace`, { variables: { amount: 2000 } }))
      .ok()
    expect(traced.result).toBe("high")
    expect(traced.trace[0]).toMatchObject({
      decisionId: "risk",
      inputs: [{ value: 2000 }],
      matchedRules: [{ ruleId: "high" }]
    })
  })

  it("answers a Unique table with two matches with 422 naming the rules, and an invalid table with 400", async () => {
    const owner = await (await givenTenant()).owner()
    const overlapping = (await owner.post(
      "/decisions",
      riskTable("UNIQUE", { id: "also", inputEntries: ["> 500"], outputEntries: ["\"mid\""] })
    )).ok(201)
    const violation = (await owner.post(`/decisions/${overlapping.id}/evaluate`, { variables: { amount: 2000 } }))
      .fails(422, "BUSINESS_ERROR")
    expect(JSON.stringify(violation)).toMatch(/high/)
    expect(JSON.stringify(violation)).toMatch(/also/)
    const invalid = (await owner.post("/decisions", {
      id: "",
      inputs: [],
      outputs: [],
      rules: [{ inputEntries: ["1"], outputEntries: [] }]
    })).fails(400, "VALIDATION_ERROR")
    expect(invalid.errors.length).toBeGreaterThan(0)
    ;(await owner.call("POST", "/decisions/import", { rawBody: "<definitions>", contentType: "application/xml" }))
      .fails(400, "VALIDATION_ERROR")
  })

  it("refuses a table whose rule has an input's, an output's or another rule's id (the rule would be lost)", async () => {
    const owner = await (await givenTenant()).owner()
    const refused = async (rule: Record<string, unknown>, field: string) => {
      const error = (await owner.post("/decisions", riskTable("FIRST", rule))).fails(400, "VALIDATION_ERROR")
      expect(error.errors).toEqual([expect.objectContaining({ field })])
      expect(error.message).toContain(field)
    }
    const rule = { inputEntries: ["> 5000"], outputEntries: ["\"extreme\""] }
    await refused({ ...rule, id: "in_amount" }, "rules[2].id")
    await refused({ ...rule, id: "out_level" }, "rules[2].id")
    await refused({ ...rule, id: "low" }, "rules[2].id")
    await refused({ ...rule, id: "risk" }, "rules[2].id")
    // with distinct ids every rule is kept, also through the stored XML
    const kept = (await owner.post("/decisions", riskTable("RULE ORDER", { ...rule, id: "extreme" }))).ok(201)
    expect((await owner.post(`/decisions/${kept.id}/evaluate`, { variables: { amount: 6000 } })).ok().result)
      .toEqual(["high", "extreme"])
    expect((await owner.get(`/decisions/${kept.id}/xml`)).ok().xml).toContain("\"extreme\"")
    // a DMN file whose rule has its input's id is refused the same way, naming the id
    const xml = (await owner.get(`/decisions/${kept.id}/xml`)).ok().xml as string
    const clash = (await owner.call("POST", "/decisions/import", {
      rawBody: xml.replace("id=\"extreme\"", "id=\"in_amount\""),
      contentType: "application/xml"
    })).fails(400, "VALIDATION_ERROR")
    expect(clash.errors).toEqual([expect.objectContaining({ field: "in_amount" })])
  })
})

describe("decision models", () => {
  it("imports DMN with a requirement graph and a decision service, and evaluates both", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (await owner.call("POST", "/decisions/import", {
      rawBody: fixture("pricing.dmn"),
      contentType: "application/xml"
    })).ok(201)
    expect(model.decisions.map((d: { key: string }) => d.key).sort()).toEqual(["discount", "price"])
    const read = (await owner.get(`/decision-models/${model.id}`)).ok()
    expect(read.decisionServices[0]).toMatchObject({ id: "pricingService", outputDecisions: ["price"] })
    expect(read.inputs).toEqual([{ id: "i_amount", name: "amount", typeRef: "number" }])
    expect(
      (await owner.post(`/decision-models/${model.id}/decisions/price/evaluate`, { variables: { amount: 200 } })).ok()
        .result
    ).toBe(100)
    expect(
      (await owner.post(`/decision-models/${model.id}/services/pricingService/evaluate`, { variables: { amount: 50 } }))
        .ok().result
    ).toBe(50)
    ;(await owner.post(`/decision-models/${model.id}/decisions/nope/evaluate`, { variables: {} })).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
    expect((await owner.get(`/decision-models/${model.id}/xml`)).ok().xml).toContain("pricingService")
    const stranger = await (await givenTenant()).owner()
    ;(await stranger.get(`/decision-models/${model.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })
})

describe("FEEL", () => {
  it("evaluates expressions against a context, reports syntax errors with the position, lists the built-ins", async () => {
    const caller = await (await givenTenant()).taskUser()
    expect((await caller.post("/feel/evaluate", { expression: "a + b * 2", context: { a: 1, b: 3 } })).ok()).toEqual({
      result: 7
    })
    expect((await caller.post("/feel/evaluate", { expression: "upper case(name)", context: { name: "x" } })).ok())
      .toEqual({ result: "X" })
    const syntax = (await caller.post("/feel/evaluate", { expression: "a +" })).fails(400, "VALIDATION_ERROR")
    expect(syntax.message).toMatch(/at \d+/)
    const functions = (await caller.get("/feel/functions")).ok()
    expect(functions.find((f: { name: string }) => f.name === "substring")?.parameters.length).toBeGreaterThan(0)
  })
})

describe("business rule task", () => {
  it("evaluates the latest version; outputs become variables and the result goes to resultVariable", async () => {
    const owner = await (await givenTenant()).owner()
    ;(await owner.post("/decisions", riskTable())).ok(201)
    const deployment = await owner.deploy({
      id: "assess",
      nodes: [{ id: "s", type: "startEvent" }, {
        id: "rate",
        type: "businessRuleTask",
        properties: { decisionId: "risk", resultVariable: "assessment" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "rate" }, { id: "f2", source: "rate", target: "e" }]
    })
    const instance = await owner.start(deployment.id, { amount: 5000 })
    const done = await eventually(async () => {
      const current = await owner.instance(instance.id)
      if (current.state !== "COMPLETED") throw new Error("not yet")
      return current
    })
    expect(done.variables).toEqual({ amount: 5000, level: "high", assessment: "high" })
  })
})

// A DMN model is checked when it enters, however it enters (POST /decisions/import, POST /decisions, POST /deployments):
// an unknown hit policy, or FEEL that does not parse, is a 400 naming the decision and the element, instead of a
// model that answers null or fails every evaluation with a 400 the evaluate request did not cause.
import { describe, expect, it } from "vitest"
import { definitions as bpmn } from "../support/BpmnXml.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const NS = "https://www.omg.org/spec/DMN/20191111/MODEL/"

const definitions = (body: string) =>
  `<definitions xmlns="${NS}" id="defs" name="checked" namespace="urn:checked">${body}</definitions>`

/** A decision table on `age`; `cells` replaces parts of the valid one. */
const table = (
  cells: { hitPolicy?: string; aggregation?: string; input?: string; inputEntry?: string; outputEntry?: string } = {}
) =>
  definitions(`
  <inputData id="i_age" name="age"><variable name="age" typeRef="number"/></inputData>
  <decision id="approval" name="Approval">
    <informationRequirement><requiredInput href="#i_age"/></informationRequirement>
    <decisionTable id="approval_table" hitPolicy="${cells.hitPolicy ?? "UNIQUE"}"${
    cells.aggregation === undefined ? "" : ` aggregation="${cells.aggregation}"`
  }>
      <input id="in_age" label="Age"><inputExpression typeRef="number"><text>${
    cells.input ?? "age"
  }</text></inputExpression></input>
      <output id="out_status" name="status" typeRef="string"/>
      <rule id="adult"><inputEntry><text>${cells.inputEntry ?? "&gt;= 18"}</text></inputEntry>
        <outputEntry><text>${cells.outputEntry ?? "\"OK\""}</text></outputEntry></rule>
      <rule id="minor"><inputEntry><text>&lt; 18</text></inputEntry><outputEntry><text>"NO"</text></outputEntry></rule>
    </decisionTable>
  </decision>`)

const literal = (text: string) =>
  definitions(`<decision id="greeting" name="Greeting"><literalExpression><text>${text}</text></literalExpression>
  </decision>`)

const importXml = (caller: Caller, xml: string) =>
  caller.call("POST", "/decisions/import", { rawBody: xml, contentType: "application/xml" })

/** The import is refused with 400 VALIDATION_ERROR whose errors name these fields, and nothing is stored. */
const refused = async (caller: Caller, xml: string, fields: ReadonlyArray<string>) => {
  const error = (await importXml(caller, xml)).fails(400, "VALIDATION_ERROR")
  expect(error.errors.map((e: { field: string }) => e.field)).toEqual(fields)
  for (const field of fields) expect(error.message).toContain(field)
  return error
}

describe("a DMN model is checked when it is imported", () => {
  it("refuses a decision table with an unknown hit policy or aggregation, naming the decision and attribute", async () => {
    const owner = await (await givenTenant()).owner()
    const bogus = await refused(owner, table({ hitPolicy: "BOGUS" }), ["decisions[approval].hitPolicy"])
    expect(bogus.errors[0].message).toContain("BOGUS")
    expect(bogus.errors[0].message).toContain("RULE ORDER")
    await refused(owner, table({ hitPolicy: "unique" }), ["decisions[approval].hitPolicy"])
    await refused(owner, table({ hitPolicy: "COLLECT", aggregation: "AVG" }), ["decisions[approval].aggregation"])
    await refused(owner, table({ hitPolicy: "FIRST", aggregation: "SUM" }), ["decisions[approval].aggregation"])
    // nothing was stored
    expect((await owner.get("/decision-models")).ok().items).toEqual([])
    expect((await owner.get("/decisions?key=approval")).ok().items).toEqual([])
  })

  it("accepts every DMN hit policy, and COLLECT with each aggregation", async () => {
    const owner = await (await givenTenant()).owner()
    for (const hitPolicy of ["UNIQUE", "FIRST", "PRIORITY", "ANY", "COLLECT", "RULE ORDER", "OUTPUT ORDER"]) {
      const model = (await importXml(owner, table({ hitPolicy }))).ok(201)
      const result = (await owner.post(`/decision-models/${model.id}/decisions/approval/evaluate`, {
        variables: { age: 30 }
      })).ok().result
      expect(result).toEqual(["COLLECT", "RULE ORDER", "OUTPUT ORDER"].includes(hitPolicy) ? ["OK"] : "OK")
    }
    for (const aggregation of ["SUM", "MIN", "MAX", "COUNT"]) {
      ;(await importXml(owner, table({ hitPolicy: "COLLECT", aggregation }))).ok(201)
    }
  })

  it("refuses a rule's input or output entry, or an input expression, that does not parse, naming rule and column", async () => {
    const owner = await (await givenTenant()).owner()
    const entry = await refused(owner, table({ inputEntry: "[1.." }), [
      "decisions[approval].rules[adult].inputEntries[0]"
    ])
    expect(entry.errors[0].message).toMatch(/rule adult, input column 1 \("Age"\): FEEL syntax error/)
    const output = await refused(owner, table({ outputEntry: "[1.." }), [
      "decisions[approval].rules[adult].outputEntries[0]"
    ])
    expect(output.errors[0].message).toMatch(/rule adult, output "status": FEEL syntax error/)
    await refused(owner, table({ input: "age +" }), ["decisions[approval].inputs[0].inputExpression"])
    await refused(owner, table({ input: "" }), ["decisions[approval].inputs[0].inputExpression"])
  })

  it("refuses a literal expression that does not parse, naming the decision", async () => {
    const owner = await (await givenTenant()).owner()
    const error = await refused(owner, literal("(((("), ["decisions[greeting].literalExpression"])
    expect(error.errors[0]).toMatchObject({ code: "INVALID_MODEL" })
    expect(error.errors[0].message).toMatch(/literal expression: FEEL syntax error at \d+/)
    // a valid one imports and evaluates
    const model = (await importXml(owner, literal("\"Hello \" + name"))).ok(201)
    expect(
      (await owner.post(`/decision-models/${model.id}/decisions/greeting/evaluate`, { variables: { name: "Ada" } }))
        .ok().result
    ).toBe("Hello Ada")
  })

  it("checks FEEL inside contexts, business knowledge models, invocations, lists and relations", async () => {
    const owner = await (await givenTenant()).owner()
    const bkm = (body: string) =>
      definitions(`
      <businessKnowledgeModel id="double" name="Double"><encapsulatedLogic>
        <formalParameter name="x" typeRef="number"/>
        <literalExpression><text>${body}</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
      <decision id="twice" name="Twice">
        <knowledgeRequirement><requiredKnowledge href="#double"/></knowledgeRequirement>
        <invocation><literalExpression><text>Double</text></literalExpression>
          <binding><parameter name="x"/><literalExpression><text>21</text></literalExpression></binding>
        </invocation></decision>`)
    await refused(owner, bkm("x * * 2"), ["businessKnowledgeModels[double].body"])
    const valid = (await importXml(owner, bkm("x * 2"))).ok(201)
    expect((await owner.post(`/decision-models/${valid.id}/decisions/twice/evaluate`, { variables: {} })).ok().result)
      .toBe(42)
    await refused(owner, bkm("x * 2").replace("<text>21</text>", "<text>21 +</text>"), [
      "decisions[twice].bindings[x]"
    ])
    await refused(
      owner,
      definitions(`<decision id="ctx" name="Ctx"><context>
        <contextEntry><variable name="a"/><literalExpression><text>1</text></literalExpression></contextEntry>
        <contextEntry><variable name="b"/><list>
          <literalExpression><text>a</text></literalExpression>
          <literalExpression><text>a ]</text></literalExpression></list></contextEntry>
        <contextEntry><variable name="c"/><relation><column name="n"/>
          <row><literalExpression><text>if</text></literalExpression></row></relation></contextEntry>
      </context></decision>`),
      ["decisions[ctx].contextEntries[b].items[1]", "decisions[ctx].contextEntries[c].rows[0][n]"]
    )
  })

  it("still accepts names the parser only reads when told about them", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (await importXml(
      owner,
      definitions(`
      <itemDefinition name="tApplicant"><itemComponent name="Customer's age"><typeRef>number</typeRef></itemComponent>
      </itemDefinition>
      <inputData id="i_app" name="Applicant"><variable name="Applicant" typeRef="tApplicant"/></inputData>
      <inputData id="i_name" name="Student's name"><variable name="Student's name" typeRef="string"/></inputData>
      <decision id="d" name="decision A 2.1">
        <informationRequirement><requiredInput href="#i_app"/></informationRequirement>
        <informationRequirement><requiredInput href="#i_name"/></informationRequirement>
        <literalExpression><text>Student's name + ": " + string(Applicant.Customer's age)</text></literalExpression>
      </decision>
      <decision id="e" name="E"><informationRequirement><requiredDecision href="#d"/></informationRequirement>
        <literalExpression><text>decision A 2.1 + "!"</text></literalExpression></decision>`)
    )).ok(201)
    expect(
      (await owner.post(`/decision-models/${model.id}/decisions/e/evaluate`, {
        variables: { Applicant: { "Customer's age": 30 }, "Student's name": "Ada" }
      })).ok().result
    ).toBe("Ada: 30!")
  })
})

describe("requirements that form a cycle", () => {
  it("are refused at import naming the decision, instead of failing every evaluation", async () => {
    const owner = await (await givenTenant()).owner()
    const requiring = (id: string, required: string) =>
      `<decision id="${id}" name="${id}"><informationRequirement><requiredDecision href="#${required}"/>
      </informationRequirement><literalExpression><text>${required} + 1</text></literalExpression></decision>`
    const two = await refused(owner, definitions(requiring("a", "b") + requiring("b", "a")), ["decisions[a]"])
    expect(two.errors[0].message).toBe("requirements form a cycle: decision a requires decision b requires decision a")
    await refused(
      owner,
      definitions(requiring("a", "b") + requiring("b", "c") + requiring("c", "a")),
      ["decisions[a]"]
    )
    const recursive = await refused(
      owner,
      definitions(`<businessKnowledgeModel id="f" name="f">
        <knowledgeRequirement><requiredKnowledge href="#f"/></knowledgeRequirement>
        <encapsulatedLogic><formalParameter name="n" typeRef="number"/>
          <literalExpression><text>if n = 0 then 0 else f(n - 1)</text></literalExpression></encapsulatedLogic>
      </businessKnowledgeModel>
      <decision id="d" name="d"><knowledgeRequirement><requiredKnowledge href="#f"/></knowledgeRequirement>
        <literalExpression><text>f(1)</text></literalExpression></decision>`),
      ["businessKnowledgeModels[f]"]
    )
    expect(recursive.errors[0].message).toMatch(/business knowledge model f requires business knowledge model f/)
    expect((await owner.get("/decision-models")).ok().items).toEqual([])
    // the same decisions without the cycle import and evaluate
    const chain = (await importXml(
      owner,
      definitions(
        requiring("a", "b") + `<decision id="b" name="b">
      <literalExpression><text>1</text></literalExpression></decision>`
      )
    )).ok(201)
    expect((await owner.post(`/decision-models/${chain.id}/decisions/a/evaluate`, { variables: {} })).ok().result)
      .toBe(2)
  })
})

describe("every way a DMN model enters is checked", () => {
  it("POST /decisions refuses a JSON table whose FEEL does not parse, naming the field", async () => {
    const owner = await (await givenTenant()).owner()
    const json = (rule: { inputEntries: Array<string>; outputEntries: Array<string> }, expression = "age") => ({
      id: "approval",
      hitPolicy: "FIRST",
      inputs: [{ label: "Age", expression }],
      outputs: [{ name: "status" }],
      rules: [rule]
    })
    const fields = async (body: unknown) =>
      (await owner.post("/decisions", body)).fails(400, "VALIDATION_ERROR").errors.map((e: { field: string }) =>
        e.field
      )
    expect(await fields(json({ inputEntries: ["[1.."], outputEntries: ["\"OK\""] }))).toEqual([
      "rules[0].inputEntries[0]"
    ])
    expect(await fields(json({ inputEntries: ["-"], outputEntries: ["(((("] }))).toEqual([
      "rules[0].outputEntries[0]"
    ])
    expect(await fields(json({ inputEntries: ["-"], outputEntries: ["\"OK\""] }, "age >"))).toEqual([
      "inputs[0].expression"
    ])
    expect(await fields({ ...json({ inputEntries: ["-"], outputEntries: ["1"] }), hitPolicy: "BOGUS" })).toEqual([
      "hitPolicy"
    ])
    expect((await owner.get("/decisions?key=approval")).ok().items).toEqual([])
    ;(await owner.post("/decisions", json({ inputEntries: ["[1..17]"], outputEntries: ["\"NO\""] }))).ok(201)
  })

  it("POST /deployments refuses a .dmn resource whose FEEL does not parse, naming the resource and element", async () => {
    const owner = await (await givenTenant()).owner()
    const process = {
      name: "onboarding.bpmn",
      content: bpmn(`<bpmn:process id="onboarding" isExecutable="true"><bpmn:startEvent id="start"/>
        <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="end"/><bpmn:endEvent id="end"/></bpmn:process>`)
    }
    const deploy = (dmn: string) =>
      owner.post("/deployments", { resources: [process, { name: "approval.dmn", content: dmn }] })
    const error = (await deploy(table({ inputEntry: "[1.." }))).fails(400, "VALIDATION_ERROR")
    expect(error.errors).toEqual([
      expect.objectContaining({
        field: "decisions[approval].rules[adult].inputEntries[0]",
        message: expect.stringMatching(/^approval\.dmn: rule adult/)
      })
    ])
    const bogus = (await deploy(table({ hitPolicy: "BOGUS" }))).fails(400, "VALIDATION_ERROR")
    expect(bogus.errors).toEqual([expect.objectContaining({ field: "decisions[approval].hitPolicy" })])
    expect((await owner.get("/decisions?key=approval")).ok().items).toEqual([]) // the same bundle with a valid table deploys
    ;(await deploy(table())).ok(201)
  })
})

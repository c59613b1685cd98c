// DMN imports over HTTP: an imported namespace is the tenant's latest stored model of that namespace, resolved when
// evaluating (so models import in any order), with importName.element access to decisions, BKMs, decision
// services and item definitions, through nested imports.
import { describe, expect, it } from "vitest"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const NS = "https://www.omg.org/spec/DMN/20230324/MODEL/"

const base = `<definitions xmlns="${NS}" namespace="urn:base" name="base">
  <businessKnowledgeModel id="shout" name="Shout"><variable name="Shout"/>
    <encapsulatedLogic><formalParameter name="s" typeRef="string"/>
      <literalExpression><text>upper case(s)</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
</definitions>`

const library = `<definitions xmlns="${NS}" namespace="urn:lib" name="lib">
  <import namespace="urn:base" name="base" importType="${NS}"/>
  <itemDefinition name="tPerson">
    <itemComponent name="name"><typeRef>string</typeRef></itemComponent>
    <itemComponent name="born"><typeRef>date</typeRef></itemComponent>
  </itemDefinition>
  <inputData id="who" name="Person name"><variable name="Person name" typeRef="string"/></inputData>
  <decision id="greet" name="Greeting"><variable name="Greeting" typeRef="string"/>
    <informationRequirement><requiredInput href="#who"/></informationRequirement>
    <literalExpression><text>"Hello, " + Person name</text></literalExpression></decision>
  <decision id="loud" name="Loud"><variable name="Loud" typeRef="string"/>
    <informationRequirement><requiredInput href="#who"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="urn:base#shout"/></knowledgeRequirement>
    <literalExpression><text>base.Shout(Person name)</text></literalExpression></decision>
  <decisionService id="greetService" name="Greet service"><variable name="Greet service"/>
    <outputDecision href="#greet"/><inputData href="#who"/></decisionService>
</definitions>`

const main = `<definitions xmlns="${NS}" namespace="urn:main" name="main">
  <import namespace="urn:lib" name="lib" importType="${NS}"/>
  <inputData id="someone" name="Someone"><variable name="Someone" typeRef="lib.tPerson"/></inputData>
  <decision id="d1" name="Greeting and loud"><variable name="Greeting and loud" typeRef="string"/>
    <informationRequirement><requiredDecision href="urn:lib#greet"/></informationRequirement>
    <informationRequirement><requiredDecision href="urn:lib#loud"/></informationRequirement>
    <literalExpression><text>lib.Greeting + " / " + lib.Loud</text></literalExpression></decision>
  <decision id="d2" name="Via service"><variable name="Via service" typeRef="string"/>
    <knowledgeRequirement><requiredKnowledge href="urn:lib#greetService"/></knowledgeRequirement>
    <literalExpression><text>lib.Greet service("Bob")</text></literalExpression></decision>
  <decision id="d3" name="Born in"><variable name="Born in" typeRef="number"/>
    <informationRequirement><requiredInput href="#someone"/></informationRequirement>
    <literalExpression><text>Someone.born.year</text></literalExpression></decision>
</definitions>`

const importXml = async (caller: Caller, xml: string) =>
  (await caller.call("POST", "/decisions/import", { rawBody: xml, contentType: "application/xml" })).ok(201)

describe("DMN imports", () => {
  it("resolves imports against the tenant's stored models, in any import order", async () => {
    const owner = await (await givenTenant()).owner()
    const model = await importXml(owner, main)
    const evaluate = (decision: string, variables: Record<string, unknown>) =>
      owner.post(`/decision-models/${model.id}/decisions/${encodeURIComponent(decision)}/evaluate`, { variables })
    const unresolved = (await evaluate("Greeting and loud", { "Person name": "Ada" })).fails(422, "BUSINESS_ERROR")
    expect(unresolved.errors[0]).toMatchObject({ field: "imports.lib", code: "IMPORT_NOT_FOUND" })
    await importXml(owner, library)
    // lib imports base in turn, which is still missing.
    const nested = (await evaluate("Greeting and loud", { "Person name": "Ada" })).fails(422, "BUSINESS_ERROR")
    expect(nested.errors[0]).toMatchObject({ field: "imports.base" })
    await importXml(owner, base)
    expect((await evaluate("Greeting and loud", { "Person name": "Ada" })).ok().result).toBe("Hello, Ada / ADA")
    expect((await evaluate("Via service", {})).ok().result).toBe("Hello, Bob")
    expect((await evaluate("Born in", { Someone: { name: "Ada", born: "1815-12-10" } })).ok().result).toBe(1815)
    const stored = model.decisions.find((d: { key: string }) => d.key === "d1")
    expect((await owner.post(`/decisions/${stored.id}/evaluate`, { variables: { "Person name": "Al" } })).ok().result)
      .toBe("Hello, Al / AL")
  })

  it("sees only the tenant's own models", async () => {
    const other = await (await givenTenant()).owner()
    await importXml(other, library)
    await importXml(other, base)
    const owner = await (await givenTenant()).owner()
    const model = await importXml(owner, main)
    ;(await owner.post(`/decision-models/${model.id}/decisions/d2/evaluate`, { variables: {} })).fails(
      422,
      "BUSINESS_ERROR"
    )
  })
})

// Decision services: parameters are the input data, then the input decisions, in declared order; an invocation with
// the wrong number or types of arguments is an error (null in FEEL, 400 over the API), never a made-up value.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const NS = "https://www.omg.org/spec/DMN/20230324/MODEL/"

const invoking = (name: string, text: string) =>
  `<decision id="${name}" name="${name}"><variable name="${name}"/>
    <knowledgeRequirement><requiredKnowledge href="#svc"/></knowledgeRequirement>
    <literalExpression><text>${text}</text></literalExpression></decision>`

const model = `<definitions xmlns="${NS}" namespace="urn:services" name="services">
  <inputData id="i1" name="first"><variable name="first" typeRef="string"/></inputData>
  <inputData id="i2" name="second"><variable name="second" typeRef="string"/></inputData>
  <decision id="d3" name="third"><variable name="third" typeRef="string"/>
    <literalExpression><text>"never evaluated"</text></literalExpression></decision>
  <decision id="d4" name="fourth"><variable name="fourth" typeRef="number"/>
    <literalExpression><text>0</text></literalExpression></decision>
  <decision id="joined" name="joined"><variable name="joined" typeRef="string"/>
    <informationRequirement><requiredDecision href="#d3"/></informationRequirement>
    <informationRequirement><requiredDecision href="#d4"/></informationRequirement>
    <informationRequirement><requiredInput href="#i1"/></informationRequirement>
    <informationRequirement><requiredInput href="#i2"/></informationRequirement>
    <literalExpression><text>first + " " + second + " " + third + " " + string(fourth)</text></literalExpression>
  </decision>
  <decisionService id="svc" name="Join"><variable name="Join"/>
    <outputDecision href="#joined"/>
    <inputDecision href="#d3"/><inputDecision href="#d4"/>
    <inputData href="#i1"/><inputData href="#i2"/>
  </decisionService>
  ${invoking("positional", "Join(\"A\", \"B\", \"C\", 4)")}
  ${invoking("named", "Join(fourth: 4, first: \"A\", third: \"C\", second: \"B\")")}
  ${invoking("tooFew", "Join(\"A\", \"B\", \"C\")")}
  ${invoking("tooMany", "Join(\"A\", \"B\", \"C\", 4, 5)")}
  ${invoking("wrongType", "Join(\"A\", \"B\", \"C\", \"four\")")}
  ${invoking("unknownName", "Join(fifth: 4)")}
  ${invoking("singleton", "Join([\"A\"], \"B\", \"C\", [4])")}
</definitions>`

describe("decision services", () => {
  it("bind positional arguments as input data then input decisions, in declared order; misuse is null", async () => {
    const owner = await (await givenTenant()).owner()
    const imported = (await owner.call("POST", "/decisions/import", { rawBody: model, contentType: "application/xml" }))
      .ok(201)
    const result = async (decision: string) =>
      (await owner.post(`/decision-models/${imported.id}/decisions/${decision}/evaluate`, { variables: {} })).ok()
        .result
    expect(await result("positional")).toBe("A B C 4")
    expect(await result("named")).toBe("A B C 4")
    expect(await result("singleton")).toBe("A B C 4")
    for (const misuse of ["tooFew", "tooMany", "wrongType", "unknownName"]) expect(await result(misuse)).toBeNull()
  })

  it("over the API: named variables are the parameters; unknown names and wrong types are 400 naming them", async () => {
    const owner = await (await givenTenant()).owner()
    const imported = (await owner.call("POST", "/decisions/import", { rawBody: model, contentType: "application/xml" }))
      .ok(201)
    const evaluate = (variables: Record<string, unknown>) =>
      owner.post(`/decision-models/${imported.id}/services/Join/evaluate`, { variables })
    expect((await evaluate({ first: "A", second: "B", third: "C", fourth: 4 })).ok().result).toBe("A B C 4")
    const wrongType = (await evaluate({ first: "A", second: "B", third: "C", fourth: "4" })).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(wrongType.errors).toEqual([expect.objectContaining({ field: "variables.fourth" })])
    const unknown = (await evaluate({ first: "A", fifth: 5 })).fails(400, "VALIDATION_ERROR")
    expect(unknown.errors).toEqual([expect.objectContaining({ field: "variables.fifth" })])
    expect(unknown.errors[0].message).toContain("first, second, third, fourth")
  })
})

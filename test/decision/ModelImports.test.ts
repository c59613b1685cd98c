import { describe, expect, it } from "vitest"
import { evaluateDecision } from "../../src/decision/DecisionEvaluation.ts"
import { type DecisionModel, resolveImports } from "../../src/decision/DecisionModel.ts"
import { importDmnXml } from "../../src/decision/DmnXmlImport.ts"
import { toJson } from "../../src/decision/feel/FeelJson.ts"

const NS = "https://www.omg.org/spec/DMN/20230324/MODEL/"

const library = `<definitions xmlns="${NS}" namespace="urn:lib" name="lib" id="lib">
  <inputData id="who" name="Person name"><variable name="Person name" typeRef="string"/></inputData>
  <decision id="greet" name="Greeting"><variable name="Greeting" typeRef="string"/>
    <informationRequirement><requiredInput href="#who"/></informationRequirement>
    <literalExpression><text>"Hello, " + Person name</text></literalExpression></decision>
  <businessKnowledgeModel id="shout" name="Shout"><variable name="Shout"/>
    <encapsulatedLogic><formalParameter name="s" typeRef="string"/><literalExpression><text>upper case(s)</text></literalExpression></encapsulatedLogic>
  </businessKnowledgeModel>
</definitions>`

const main = `<definitions xmlns="${NS}" namespace="urn:main" name="main" id="main">
  <import namespace="urn:lib" name="lib" importType="${NS}"/>
  <decision id="d" name="Loud greeting"><variable name="Loud greeting" typeRef="string"/>
    <informationRequirement><requiredDecision href="urn:lib#greet"/></informationRequirement>
    <knowledgeRequirement><requiredKnowledge href="urn:lib#shout"/></knowledgeRequirement>
    <literalExpression><text>lib.Shout(lib.Greeting)</text></literalExpression></decision>
</definitions>`

const load = async (xml: string): Promise<DecisionModel> => {
  const r = await importDmnXml(xml)
  if (!r.ok) throw new Error(JSON.stringify(r.error))
  return r.value
}

describe("model imports", () => {
  it("imported decisions and BKMs are visible under the import name", async () => {
    const lib = await load(library)
    const model = resolveImports(await load(main), [lib])
    const r = evaluateDecision(model, "d", { "Person name": "Ada" })
    expect(r._tag === "EvaluationOk" ? toJson(r.result) : r).toBe("HELLO, ADA")
  })
  it("an unresolved import is a missing decision", async () => {
    const r = evaluateDecision(await load(main), "d", {})
    expect(r).toMatchObject({ _tag: "DecisionError", code: "NOT_FOUND" })
  })
})

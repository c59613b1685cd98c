import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { decisionModelProblems, expressionProblem, unaryTestsProblem } from "../../src/decision/DmnModelCheck.ts"
import { importDmnXml } from "../../src/decision/DmnXmlImport.ts"
import { conformanceKit } from "../support/ConformanceKit.ts"

const model = async (body: string) => {
  const r = await importDmnXml(
    `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" name="m" namespace="urn:m">${body}</definitions>`
  )
  if (!r.ok) throw new Error(JSON.stringify(r.error))
  return r.value
}

describe("FEEL text is checked as the evaluator compiles it", () => {
  it("expressions and unary tests that do not parse have a problem with the position; dashes and empty tests none", () => {
    expect(expressionProblem("((((")).toMatch(/^FEEL syntax error at \d+: /)
    expect(expressionProblem("")).not.toBeNull()
    expect(unaryTestsProblem("[1..")).toMatch(/^FEEL syntax error at/)
    expect(unaryTestsProblem("-")).toBeNull()
    expect(unaryTestsProblem("")).toBeNull()
    expect(unaryTestsProblem("[1..10], > 20, \"x\", not(5)")).toBeNull()
    expect(expressionProblem("x instance of range<number>")).toBeNull()
  })
  it("a name with special characters parses when the model declares it, also as a member of a path", () => {
    expect(expressionProblem("Customer's age + 1")).not.toBeNull()
    expect(expressionProblem("Customer's age + 1", new Set(["Customer's age"]))).toBeNull()
    expect(expressionProblem("Applicant.Customer's age + 1", new Set(["Applicant", "Customer's age"]))).toBeNull()
    expect(unaryTestsProblem("> Customer's age", new Set(["Customer's age"]))).toBeNull()
  })
})

describe("decisionModelProblems", () => {
  it("names the decision and the element: hit policy, rule and column, literal expression, BKM body", async () => {
    const m = await model(`
      <decision id="t" name="T"><decisionTable hitPolicy="BOGUS">
        <input label="A"><inputExpression><text>a</text></inputExpression></input>
        <output name="o"/>
        <rule id="r1"><inputEntry><text>[1..</text></inputEntry><outputEntry><text>1 +</text></outputEntry></rule>
      </decisionTable></decision>
      <decision id="l" name="L"><literalExpression><text>((((</text></literalExpression></decision>
      <businessKnowledgeModel id="b" name="B"><encapsulatedLogic><formalParameter name="x"/>
        <literalExpression><text>x *</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>
      <itemDefinition name="tAge"><typeRef>number</typeRef><allowedValues><text>[0..</text></allowedValues>
      </itemDefinition>`)
    expect(decisionModelProblems(m).map((p) => p.path)).toEqual([
      "decisions[t].hitPolicy",
      "decisions[t].rules[r1].inputEntries[0]",
      "decisions[t].rules[r1].outputEntries[0]",
      "decisions[l].literalExpression",
      "businessKnowledgeModels[b].body",
      "itemDefinitions[tAge].allowedValues"
    ])
  })
  it("an empty literal expression is null and an empty input entry matches anything: no problem", async () => {
    const m = await model(`
      <decision id="l" name="L"><literalExpression><text></text></literalExpression></decision>
      <decision id="t" name="T"><decisionTable hitPolicy="COLLECT" aggregation="COUNT">
        <input><inputExpression><text>a</text></inputExpression></input><output name="o"/>
        <rule><inputEntry><text></text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
      </decisionTable></decision>`)
    expect(decisionModelProblems(m)).toEqual([])
  })
})

const kit = conformanceKit("dmn-tck", "DMN_TCK_DIR")

describe.runIf(kit.runs)("the DMN TCK's models", () => {
  it("all pass the check (a model the kit evaluates is never refused)", async () => {
    const models: Array<string> = []
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (file.endsWith(".dmn")) models.push(file)
      }
    }
    walk(kit.folder)
    expect(models.length).toBeGreaterThan(100)
    const refused: Array<string> = []
    for (const file of models) {
      const r = await importDmnXml(fs.readFileSync(file, "utf8"))
      if (!r.ok) continue
      for (const p of decisionModelProblems(r.value)) refused.push(`${file}: ${p.path}: ${p.message}`)
    }
    expect(refused).toEqual([])
  }, 60_000)
})

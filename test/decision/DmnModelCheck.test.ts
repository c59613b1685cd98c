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

describe("requirement cycles", () => {
  const decision = (id: string, requires: ReadonlyArray<string>, knowledge: ReadonlyArray<string> = []) =>
    `<decision id="${id}" name="${id}">${
      requires.map((r) => `<informationRequirement><requiredDecision href="#${r}"/></informationRequirement>`).join("")
    }${
      knowledge.map((k) => `<knowledgeRequirement><requiredKnowledge href="#${k}"/></knowledgeRequirement>`).join("")
    }<literalExpression><text>1</text></literalExpression></decision>`
  const bkm = (id: string, knowledge: ReadonlyArray<string>) =>
    `<businessKnowledgeModel id="${id}" name="${id}">${
      knowledge.map((k) => `<knowledgeRequirement><requiredKnowledge href="#${k}"/></knowledgeRequirement>`).join("")
    }<encapsulatedLogic><formalParameter name="n"/><literalExpression><text>n</text></literalExpression>
    </encapsulatedLogic></businessKnowledgeModel>`

  it("names each cycle of decisions or knowledge models once, at the element the search met it", async () => {
    const two = decisionModelProblems(await model(decision("a", ["b"]) + decision("b", ["a"])))
    expect(two).toEqual([{
      path: "decisions[a]",
      message: "requirements form a cycle: decision a requires decision b requires decision a"
    }])
    const longer = decisionModelProblems(
      await model(decision("top", ["a"]) + decision("a", ["b"]) + decision("b", ["c"]) + decision("c", ["a"]))
    )
    expect(longer.map((p) => p.message)).toEqual([
      "requirements form a cycle: decision a requires decision b requires decision c requires decision a"
    ])
    const self = decisionModelProblems(await model(decision("d", [], ["f"]) + bkm("f", ["f"])))
    expect(self).toEqual([{
      path: "businessKnowledgeModels[f]",
      message: "requirements form a cycle: business knowledge model f requires business knowledge model f"
    }])
    expect(decisionModelProblems(await model(bkm("f", ["g"]) + bkm("g", ["f"])))).toHaveLength(1)
  })

  it("a diamond, a chain of 10,000 and a knowledge model shared by decisions are no cycle", async () => {
    const diamond = decision("top", ["l", "r"]) + decision("l", ["bottom"]) + decision("r", ["bottom"]) +
      decision("bottom", [], ["f"]) + bkm("f", ["g"]) + bkm("g", [])
    expect(decisionModelProblems(await model(diamond))).toEqual([])
    const chain = Array.from({ length: 10_000 }, (_, i) => decision(`d${i}`, i === 0 ? [] : [`d${i - 1}`])).join("")
    expect(decisionModelProblems(await model(chain))).toEqual([])
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

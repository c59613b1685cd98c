import { describe, expect, it } from "vitest"
import { evaluateDecision } from "../../src/decision/DecisionEvaluation.ts"
import { importDmnXml } from "../../src/decision/DmnXmlImport.ts"
import { toJson } from "../../src/decision/feel/FeelJson.ts"

const model = (logic: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20230324/MODEL/" namespace="urn:test" name="boxed" id="defs">
  <decision name="d" id="d"><variable name="d"/>${logic}</decision>
</definitions>`

const lit = (text: string) => `<literalExpression><text>${text}</text></literalExpression>`

const run = async (logic: string) => {
  const imported = await importDmnXml(model(logic))
  if (!imported.ok) throw new Error(JSON.stringify(imported.error))
  const r = evaluateDecision(imported.value, "d", {})
  return r._tag === "EvaluationOk" ? toJson(r.result) : r
}

describe("DMN 1.5 boxed conditional, iterators and filter", () => {
  it("conditional picks then / else; a non-boolean condition is an error", async () => {
    expect(
      await run(
        `<conditional><if>${lit("1 &lt; 2")}</if><then>${lit("\"yes\"")}</then><else>${
          lit("\"no\"")
        }</else></conditional>`
      )
    ).toBe("yes")
    expect(
      await run(
        `<conditional><if>${lit("false")}</if><then>${lit("\"yes\"")}</then><else>${lit("\"no\"")}</else></conditional>`
      )
    ).toBe("no")
    expect(
      await run(`<conditional><if>${lit("\"abc\"")}</if><then>${lit("1")}</then><else>${lit("2")}</else></conditional>`)
    ).toBe(null)
  })
  it("for, some and every bind the iterator variable", async () => {
    expect(await run(`<for iteratorVariable="x"><in>${lit("[1,2,3]")}</in><return>${lit("x * 10")}</return></for>`))
      .toEqual([10, 20, 30])
    expect(
      await run(`<some iteratorVariable="x"><in>${lit("[1,2,3]")}</in><satisfies>${lit("x > 2")}</satisfies></some>`)
    ).toBe(true)
    expect(
      await run(`<every iteratorVariable="x"><in>${lit("[1,2,3]")}</in><satisfies>${lit("x > 2")}</satisfies></every>`)
    ).toBe(false)
  })
  it("filter keeps the items matching, with item and context entries in scope", async () => {
    expect(await run(`<filter><in>${lit("[1,2,3,4]")}</in><match>${lit("item >= 3")}</match></filter>`)).toEqual([3, 4])
    expect(await run(`<filter><in>${lit("[{a: 1}, {a: 5}]")}</in><match>${lit("a > 2")}</match></filter>`)).toEqual([{
      a: 5
    }])
    expect(await run(`<filter><in>${lit("[1,2]")}</in><match>${lit("\"x\"")}</match></filter>`)).toBe(null)
  })
})

// Decisions and decision services reached by name as well as by DMN id: a decision without an id is keyed by its
// name, so the id-less decisions of a file never collide into one key.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const NS = "https://www.omg.org/spec/DMN/20230324/MODEL/"

const idless = `<definitions xmlns="${NS}" namespace="urn:idless" name="idless">
  <decision name="Greeting"><variable name="Greeting" typeRef="string"/>
    <literalExpression><text>"Hello, " + who</text></literalExpression></decision>
  <decision name="Answer"><variable name="Answer" typeRef="number"/>
    <literalExpression><text>6 * 7</text></literalExpression></decision>
  <decision id="withId" name="With an id"><variable name="With an id" typeRef="number"/>
    <literalExpression><text>1</text></literalExpression></decision>
  <decision id="d2" name="Twice"><variable name="Twice" typeRef="number"/>
    <informationRequirement><requiredDecision href="#withId"/></informationRequirement>
    <literalExpression><text>With an id * 2</text></literalExpression></decision>
  <decisionService name="Doubling"><variable name="Doubling"/>
    <outputDecision href="#d2"/><encapsulatedDecision href="#withId"/></decisionService>
</definitions>`

const importModel = async () => {
  const owner = await (await givenTenant()).owner()
  const model = (await owner.call("POST", "/decisions/import", { rawBody: idless, contentType: "application/xml" }))
    .ok(201)
  return { owner, model }
}

// A decision without an id whose name is another decision's id.
const clash = `<definitions xmlns="${NS}" namespace="urn:clash" name="clash">
  <decision id="Answer" name="The answer"><variable name="The answer"/><literalExpression><text>1</text></literalExpression></decision>
  <decision name="Answer"><variable name="Answer"/><literalExpression><text>2</text></literalExpression></decision>
</definitions>`

// A decision service without an id whose name is another service's id.
const serviceClash = `<definitions xmlns="${NS}" namespace="urn:serviceclash" name="serviceclash">
  <decision id="one" name="One"><variable name="One"/><literalExpression><text>1</text></literalExpression></decision>
  <decision id="two" name="Two"><variable name="Two"/><literalExpression><text>2</text></literalExpression></decision>
  <decisionService id="Both" name="First"><variable name="First"/><outputDecision href="#one"/></decisionService>
  <decisionService name="Both"><variable name="Both"/><outputDecision href="#two"/></decisionService>
</definitions>`

describe("decisions by name", () => {
  it("keys a decision without an id by its name, so id-less decisions of a file are separate keys", async () => {
    const { owner, model } = await importModel()
    const keys = model.decisions.map((d: { key: string; version: number }) => [d.key, d.version]).sort()
    expect(keys).toEqual([["Answer", 1], ["Greeting", 1], ["d2", 1], ["withId", 1]])
    const greeting = model.decisions.find((d: { key: string }) => d.key === "Greeting")
    expect((await owner.post(`/decisions/${greeting.id}/evaluate`, { variables: { who: "Ada" } })).ok())
      .toMatchObject({ decisionKey: "Greeting", version: 1, result: "Hello, Ada" })
    expect((await owner.get("/decisions?key=Answer")).ok().items).toHaveLength(1)
    // Re-importing makes the next version of each key.
    const again = (await owner.call("POST", "/decisions/import", { rawBody: idless, contentType: "application/xml" }))
      .ok(201)
    expect(again.decisions.find((d: { key: string }) => d.key === "Answer").version).toBe(2)
  })

  it("suffixes a name-derived key that is another decision's id", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (await owner.call("POST", "/decisions/import", { rawBody: clash, contentType: "application/xml" }))
      .ok(201)
    expect(model.decisions.map((d: { key: string }) => d.key).sort()).toEqual(["Answer", "Answer~2"])
    const evaluate = async (ref: string) =>
      (await owner.post(`/decision-models/${model.id}/decisions/${encodeURIComponent(ref)}/evaluate`, {
        variables: {}
      }))
        .ok()
    expect(await evaluate("Answer")).toMatchObject({ decisionKey: "Answer", result: 1 })
    expect(await evaluate("Answer~2")).toMatchObject({ decisionKey: "Answer~2", result: 2 })
    const idless = model.decisions.find((d: { key: string }) => d.key === "Answer~2")
    expect((await owner.post(`/decisions/${idless.id}/evaluate-with-trace`, { variables: {} })).ok()).toMatchObject({
      result: 2,
      trace: [{ decisionId: "Answer~2", decisionName: "Answer" }]
    })
  })

  it("evaluates a model's decision by key, DMN id or name, and its decision service by id or name", async () => {
    const { owner, model } = await importModel()
    const evaluate = (ref: string) =>
      owner.post(`/decision-models/${model.id}/decisions/${encodeURIComponent(ref)}/evaluate`, { variables: {} })
    expect((await evaluate("Answer")).ok()).toMatchObject({ decisionKey: "Answer", result: 42 })
    expect((await evaluate("d2")).ok()).toMatchObject({ decisionKey: "d2", result: 2 })
    expect((await evaluate("Twice")).ok()).toMatchObject({ decisionKey: "d2", result: 2 })
    expect((await evaluate("With an id")).ok()).toMatchObject({ decisionKey: "withId", result: 1 })
    ;(await evaluate("Nothing")).fails(404, "RESOURCE_NOT_FOUND")
    const service = (await owner.post(`/decision-models/${model.id}/services/Doubling/evaluate`, { variables: {} }))
      .ok()
    expect(service.result).toBe(2)
    ;(await owner.post(`/decision-models/${model.id}/services/nope/evaluate`, { variables: {} })).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
  })

  it("keys a decision service without an id by its name, suffixed when that is another service's id", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (await owner.call("POST", "/decisions/import", {
      rawBody: serviceClash,
      contentType: "application/xml"
    })).ok(201)
    expect(model.decisionServices.map((s: { key: string }) => s.key)).toEqual(["Both", "Both~2"])
    const evaluate = async (ref: string) =>
      (await owner.post(`/decision-models/${model.id}/services/${encodeURIComponent(ref)}/evaluate`, {
        variables: {}
      })).ok()
    expect(await evaluate("Both")).toMatchObject({ decisionKey: "Both", result: 1 })
    expect(await evaluate("First")).toMatchObject({ decisionKey: "Both", result: 1 })
    expect(await evaluate("Both~2")).toMatchObject({ decisionKey: "Both~2", result: 2 })
  })

  it("evaluates /decisions/{id} by id (that version), key or unique name (the latest version)", async () => {
    const { owner, model } = await importModel()
    await owner.call("POST", "/decisions/import", { rawBody: idless, contentType: "application/xml" })
    const first = model.decisions.find((d: { key: string }) => d.key === "d2")
    expect((await owner.post(`/decisions/${first.id}/evaluate`, {})).ok()).toMatchObject({ version: 1, result: 2 })
    expect((await owner.post("/decisions/d2/evaluate", {})).ok()).toMatchObject({ decisionKey: "d2", version: 2 })
    expect((await owner.post(`/decisions/${encodeURIComponent("Twice")}/evaluate`, {})).ok()).toMatchObject({
      decisionKey: "d2",
      version: 2,
      result: 2
    })
    expect((await owner.get("/decisions/withId")).ok()).toMatchObject({ key: "withId", version: 2 })
    ;(await owner.post("/decisions/nothing-like-this/evaluate", {})).fails(404, "RESOURCE_NOT_FOUND")
  })
})

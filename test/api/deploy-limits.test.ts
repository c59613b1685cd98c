// What a deploy bounds before its costly or failing steps: ids and names that go to indexed columns (a process id, an
// element id, a job type, a decision id or version tag at most 255 characters, a message name 400 as in a request),
// refused with a 400 naming the element instead of a 500 from the index (a btree entry holds 2,704 bytes; random text
// does not compress below that); a JSON graph past the element cap of a BPMN document; a decision table too large for
// its DMN document, refused before its FEEL is checked and its XML written.
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { MAX_INDEXED_NAME } from "../../src/bpmn/StoredRanges.ts"
import { DEFAULT_XML_LIMITS } from "../../src/bpmn/XmlPrecheck.ts"
import { definitions } from "../support/BpmnXml.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

/** Incompressible text of `n` characters that reads as an id: a letter, then letters, digits, - and _. */
const randomId = (n: number) => `p${randomBytes(n).toString("base64url").slice(0, n - 1)}`

const oneTask = (id: string, taskType: string, elementId = "work") => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: elementId, type: "serviceTask", properties: { taskType } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: elementId }, { id: "f2", source: elementId, target: "e" }]
})

const refusal = async (caller: Caller, path: string, body: unknown) => {
  const refused = (await caller.post(path, body)).fails(400, "VALIDATION_ERROR")
  return { field: refused.errors[0].field as string, message: refused.errors[0].message as string }
}

describe("ids and names that the database indexes", () => {
  it("in a process model are bounded, refused at deploy naming the element", async () => {
    const owner = await (await givenTenant()).owner()
    const long = randomId(3_000)
    expect(await refusal(owner, "/deployments", oneTask(long, "t"))).toEqual({
      field: `${long.slice(0, 40)}…`,
      message: `the process id has 3000 characters: at most ${MAX_INDEXED_NAME} are allowed`
    })
    expect(await refusal(owner, "/deployments", oneTask("long-type", long))).toMatchObject({
      field: "work",
      message: expect.stringMatching(/^the job type \(zeebe:taskDefinition type\) has 3000 characters/)
    })
    expect((await refusal(owner, "/deployments", oneTask("long-element", "t", randomId(256)))).message).toMatch(
      /^the element id has 256 characters/
    )
    const xml = (type: string) =>
      definitions(`<bpmn:process id="xml-type" isExecutable="true">
        <bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="work"/>
        <bpmn:serviceTask id="work"><bpmn:extensionElements><zeebe:taskDefinition type="${type}"/>
        </bpmn:extensionElements></bpmn:serviceTask>
        <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="e"/><bpmn:endEvent id="e"/>
      </bpmn:process>`)
    const fromXml = (await owner.call("POST", "/deployments", { rawBody: xml(long), contentType: "application/xml" }))
      .fails(400, "VALIDATION_ERROR")
    expect(fromXml.errors[0].field).toBe("work")
    const messageStart = {
      id: "long-message",
      nodes: [{ id: "s", type: "startEvent", properties: { messageName: long } }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "e" }]
    }
    expect(await refusal(owner, "/deployments", messageStart)).toEqual({
      field: "s",
      message: "the message name has 3000 characters: at most 400 are allowed"
    })
    expect((await owner.get("/deployments")).ok().items).toEqual([])
    const nodes = [{ ...messageStart.nodes[0]!, properties: { messageName: randomId(400) } }, messageStart.nodes[1]!]
    ;(await owner.post("/deployments", { ...messageStart, nodes })).ok(201)

    // 255 characters deploy, start and are worked on
    const longest = randomId(MAX_INDEXED_NAME)
    const deployed = await owner.deploy(oneTask(longest, longest))
    expect(deployed.key).toBe(longest)
    await owner.start(deployed.id)
    const [job] = await owner.activateJobs(longest)
    expect(job.type).toBe(longest)
  })

  it("in a decision are at most 255 characters: the id of a JSON table, a DMN decision's id and version tag", async () => {
    const owner = await (await givenTenant()).owner()
    const table = (id: string) => ({
      id,
      inputs: [{ expression: "a" }],
      outputs: [{ name: "o" }],
      rules: [{ inputEntries: ["-"], outputEntries: ["1"] }]
    })
    const long = randomId(3_000)
    expect(await refusal(owner, "/decisions", table(long))).toEqual({
      field: "id",
      message: `must be at most ${MAX_INDEXED_NAME} characters`
    })
    const dmn = (id: string, tag = "v1") =>
      `<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"
        id="defs" name="m" namespace="urn:long"><decision id="${id}" name="d">
        <extensionElements><zeebe:versionTag value="${tag}"/></extensionElements>
        <literalExpression><text>1</text></literalExpression></decision></definitions>`
    const importing = (xml: string) =>
      owner.call("POST", "/decisions/import", { rawBody: xml, contentType: "application/xml" })
    const byId = (await importing(dmn(long))).fails(400, "VALIDATION_ERROR")
    expect(byId.errors[0]).toMatchObject({
      field: `decisions[${long.slice(0, 40)}…]`,
      message: "the decision id has 3000 characters: at most 255 are allowed"
    })
    const byTag = (await importing(dmn("short", long))).fails(400, "VALIDATION_ERROR")
    expect(byTag.errors[0]).toMatchObject({ field: "decisions[short]", message: expect.stringMatching(/version tag/) })
    expect((await owner.get("/decision-models")).ok().items).toEqual([])
    const longest = randomId(MAX_INDEXED_NAME)
    ;(await owner.post("/decisions", table(longest))).ok(201)
    ;(await importing(dmn(randomId(MAX_INDEXED_NAME), longest))).ok(201)
  })
})

describe("a deploy's size", () => {
  it("of a JSON graph is bounded as a BPMN document's elements are", async () => {
    const owner = await (await givenTenant()).owner()
    const cap = DEFAULT_XML_LIMITS.maxElements
    const graph = {
      id: "huge",
      nodes: [
        { id: "s", type: "startEvent" },
        ...Array.from({ length: cap }, (_, i) => ({ id: `t${i}`, type: "task" }))
      ],
      flows: []
    }
    const refused = await refusal(owner, "/deployments", graph)
    expect(refused).toEqual({ field: "process", message: expect.stringContaining(`more than ${cap} nodes and flows`) })
  })

  it("of a JSON decision table too large for its DMN document is refused at once, naming the rules", async () => {
    const owner = await (await givenTenant()).owner()
    const rules = Array.from({ length: 60_000 }, (_, i) => ({ inputEntries: [`${i}`], outputEntries: [`"r${i}"`] }))
    const refused = await refusal(owner, "/decisions", {
      id: "huge-table",
      hitPolicy: "FIRST",
      inputs: [{ expression: "n" }],
      outputs: [{ name: "o" }],
      rules
    })
    // the message is the table's own (it was the DMN document's, after 9 to 12 s of checking and writing XML)
    expect(refused).toEqual({
      field: "rules",
      message: expect.stringMatching(
        /^the table is too large: its 60000 rules make a DMN document of more than 50000 elements/
      )
    })
    expect((await owner.get("/decisions?key=huge-table")).ok().items).toEqual([])
  })
})

// Unit tests of the pure core: ad-hoc subprocesses (zeebe:adHoc, Camunda 8.8), read from BPMN XML as a modeler writes
// them: elements activated by activeElementsCollection, completion by condition or when no path is left,
// cancelRemainingInstances, the output collection, incidents for bad collections, and deploy-time checks.
import { describe, expect, it } from "vitest"
import { definitions } from "../../../support/BpmnXml.ts"
import { scenario } from "../../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../../support/Graphs.ts"

const model = (adHoc: string, inner: string, attributes = "") =>
  definitions(
    `<bpmn:process id="agent" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="tools" />
    <bpmn:adHocSubProcess id="tools" ${attributes}>
      ${adHoc}
      ${inner}
    </bpmn:adHocSubProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="tools" targetRef="after" />
    <bpmn:serviceTask id="after"><bpmn:extensionElements><zeebe:taskDefinition type="after" /></bpmn:extensionElements></bpmn:serviceTask>
    <bpmn:sequenceFlow id="f3" sourceRef="after" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`,
    { xsi: true }
  )

const task = (id: string, output = "") =>
  `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><zeebe:taskDefinition type="${id}" />${output}</bpmn:extensionElements></bpmn:serviceTask>`

/** Two tools, and a chain: search, then summarize (summarize cannot be activated on its own). */
const TOOLS = `${task("search")}${task("summarize")}${task("lookup")}
  <bpmn:sequenceFlow id="i1" sourceRef="search" targetRef="summarize" />`

const completeJob = (s: ReturnType<typeof scenario>, node: string, variables: Record<string, unknown> = {}) => {
  const job = s.waiting("job").find((j) => j.node === node)
  expect(job, `a job at ${node}`).toBeDefined()
  return s.run({ type: "CompleteJob", jobId: job!.id, variables })
}

const jobNodes = (s: ReturnType<typeof scenario>) => s.waiting("job").map((j) => j.node).sort()

describe("ad-hoc subprocess", () => {
  it("activates the elements its collection names, at once, and completes when no path is left", async () => {
    const s = scenario(
      await graphOf(
        model(
          `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`,
          TOOLS
        )
      )
    )
    s.start({ tools: ["search", "lookup"] })
    expect(jobNodes(s)).toEqual(["lookup", "search"])
    completeJob(s, "lookup")
    // the chain goes on inside; the subprocess is still running
    completeJob(s, "search")
    expect(jobNodes(s)).toEqual(["summarize"])
    completeJob(s, "summarize")
    expect(jobNodes(s)).toEqual(["after"])
  })

  it("activates an element several times when the collection names it more than once", async () => {
    const s = scenario(
      await graphOf(
        model(
          `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`,
          TOOLS
        )
      )
    )
    s.start({ tools: ["lookup", "lookup"] })
    expect(jobNodes(s)).toEqual(["lookup", "lookup"])
  })

  it("completes when the completion condition holds, terminating what still runs (cancelRemainingInstances)", async () => {
    const s = scenario(
      await graphOf(model(
        `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>
         <bpmn:completionCondition xsi:type="bpmn:tFormalExpression">=done = true</bpmn:completionCondition>`,
        TOOLS
      ))
    )
    s.start({ tools: ["search", "lookup"] })
    completeJob(s, "lookup", { done: false })
    expect(jobNodes(s)).toEqual(["search"])
    completeJob(s, "search", { done: true })
    // summarize was next on the search path; the condition ended it before it ran
    expect(jobNodes(s)).toEqual(["after"])
    expect(s.events.some((e) => e.type === "JobCanceled")).toBe(false)
  })

  it("with cancelRemainingInstances=false waits for the running paths once the condition holds", async () => {
    const s = scenario(
      await graphOf(model(
        `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>
         <bpmn:completionCondition xsi:type="bpmn:tFormalExpression">=done</bpmn:completionCondition>`,
        TOOLS,
        `cancelRemainingInstances="false"`
      ))
    )
    s.start({ tools: ["lookup", "lookup"] })
    completeJob(s, "lookup", { done: true })
    expect(jobNodes(s)).toEqual(["lookup"])
    completeJob(s, "lookup")
    expect(jobNodes(s)).toEqual(["after"])
  })

  it("terminates the remaining paths' jobs when the condition holds", async () => {
    const s = scenario(
      await graphOf(model(
        `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>
         <bpmn:completionCondition xsi:type="bpmn:tFormalExpression">=done</bpmn:completionCondition>`,
        TOOLS
      ))
    )
    s.start({ tools: ["lookup", "search"] })
    completeJob(s, "lookup", { done: true })
    expect(jobNodes(s)).toEqual(["after"])
    expect(s.events.filter((e) => e.type === "JobCanceled").map((e) => e.nodeId)).toEqual(["search"])
  })

  it("collects each path's output element into the output collection and hands it to the parent scope", async () => {
    const s = scenario(
      await graphOf(model(
        `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" outputCollection="results" outputElement="=result" /></bpmn:extensionElements>`,
        TOOLS
      ))
    )
    s.start({ tools: ["lookup", "search"] })
    completeJob(s, "lookup", { result: "L" })
    completeJob(s, "search", { result: "S" })
    completeJob(s, "summarize", { result: "SUM" })
    expect(jobNodes(s)).toEqual(["after"])
    expect(s.state.variables["results"]).toEqual(["L", "SUM"])
  })

  it("waits with nothing active when the collection is empty (as Camunda does)", async () => {
    const s = scenario(
      await graphOf(
        model(
          `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`,
          TOOLS
        )
      )
    )
    s.start({ tools: [] })
    expect(jobNodes(s)).toEqual([])
    expect(s.state.status).toBe("ACTIVE")
  })

  it("raises an incident, activating nothing, when the collection names more elements than the limit", async () => {
    const s = scenario(
      await graphOf(
        model(
          `<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`,
          TOOLS
        )
      )
    )
    s.start({ tools: Array.from({ length: 1001 }, () => "lookup") })
    expect(Object.values(s.state.incidents)[0]!.message).toMatch(/1001 elements, over the limit of 1000/)
    expect(jobNodes(s)).toEqual([])
  })

  it("raises an incident when the collection is not a list of activatable element ids", async () => {
    const graph = await graphOf(
      model(`<bpmn:extensionElements><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`, TOOLS)
    )
    for (const tools of [["summarize"], ["nope"], "search", [1]]) {
      const s = scenario(graph)
      s.start({ tools })
      expect(Object.values(s.state.incidents)).toHaveLength(1)
      expect(Object.values(s.state.incidents)[0]!.message).toMatch(/activeElementsCollection of tools/)
      expect(jobNodes(s)).toEqual([])
    }
  })

  it("is refused at deploy with a start event inside, half an output collection, or a worker and a collection", async () => {
    const withStart = await compile(model("", `<bpmn:startEvent id="innerStart" />${TOOLS}`))
    expect(withStart.ok).toBe(false)
    expect(JSON.stringify(!withStart.ok && withStart.problems)).toMatch(/cannot contain a start event/)
    const worker = await compile(model(
      `<bpmn:extensionElements><zeebe:taskDefinition type="agent" /><zeebe:adHoc activeElementsCollection="=tools" /></bpmn:extensionElements>`,
      TOOLS
    ))
    expect(JSON.stringify(!worker.ok && worker.problems)).toMatch(/job worker .*activeElementsCollection/)
    const half = await compile(
      model(`<bpmn:extensionElements><zeebe:adHoc outputCollection="results" /></bpmn:extensionElements>`, TOOLS)
    )
    expect(JSON.stringify(!half.ok && half.problems)).toMatch(/both outputCollection and outputElement/)
  })
})

describe("ad-hoc subprocess implemented by a job worker (Camunda 8.8, AI agents)", () => {
  const agent = () =>
    graphOf(model(
      `<bpmn:extensionElements><zeebe:taskDefinition type="agent" /><zeebe:adHoc outputCollection="results" outputElement="=result" /></bpmn:extensionElements>`,
      TOOLS
    ))
  const answer = (s: ReturnType<typeof scenario>, result: Record<string, unknown>, variables = {}) => {
    const job = s.waiting("job").find((j) => j.node === "tools")
    expect(job, "the worker's job").toBeDefined()
    return s.run({ type: "CompleteJob", jobId: job!.id, variables, result } as never)
  }

  it("asks its worker, activates what the worker chooses with its variables, and asks again when a path ends", async () => {
    const s = scenario(await agent())
    s.start({ question: "weather?" })
    expect(jobNodes(s)).toEqual(["tools"])
    const asked = s.events.find((e) => e.type === "JobCreated" && e.nodeId === "tools")
    expect(asked).toMatchObject({ jobType: "agent" })
    expect(s.jobVariables((asked as { jobId: string }).jobId)).toMatchObject({
      question: "weather?",
      adHocSubProcessElements: [{ elementId: "search" }, { elementId: "lookup" }]
    })
    answer(s, { activateElements: [{ elementId: "lookup", variables: { query: "Paris" } }, { elementId: "search" }] })
    expect(jobNodes(s)).toEqual(["lookup", "search"])
    const jobAt = (node: string) => s.waiting("job").find((job) => job.node === node)!.id
    expect(s.jobVariables(jobAt("lookup"))).toMatchObject({ query: "Paris" })
    expect(s.jobVariables(jobAt("search"))!["query"]).toBeUndefined()
    completeJob(s, "lookup", { result: "sunny" })
    // the path ended: the worker is asked again
    expect(jobNodes(s)).toEqual(["search", "tools"])
    answer(s, { isCompletionConditionFulfilled: true, isCancelRemainingInstances: true })
    expect(jobNodes(s)).toEqual(["after"])
    expect(s.state.variables["results"]).toEqual(["sunny"])
  })

  it("waits for running paths when the worker is done without cancelling them", async () => {
    const s = scenario(await agent())
    s.start()
    answer(s, { activateElements: [{ elementId: "lookup" }, { elementId: "search" }] })
    completeJob(s, "lookup", { result: "L" })
    answer(s, { isCompletionConditionFulfilled: true, isCancelRemainingInstances: false })
    expect(jobNodes(s)).toEqual(["search"])
    completeJob(s, "search", { result: "S" })
    expect(jobNodes(s)).toEqual(["summarize"])
    completeJob(s, "summarize", { result: "SUM" })
    // done, and no new question to the worker
    expect(jobNodes(s)).toEqual(["after"])
    expect(s.state.variables["results"]).toEqual(["L", "SUM"])
  })

  it("refuses a result naming an element it cannot activate, or both activating and completing", async () => {
    const s = scenario(await agent())
    s.start()
    const unknown = answer(s, { activateElements: [{ elementId: "summarize" }] })
    expect(unknown).toMatchObject({ ok: false, reason: "INVALID_ARGUMENT", field: "result.activateElements" })
    const many = answer(s, { activateElements: Array.from({ length: 1001 }, () => ({ elementId: "lookup" })) })
    expect(many).toMatchObject({ ok: false, reason: "INVALID_ARGUMENT", field: "result.activateElements" })
    const both = answer(s, { activateElements: [{ elementId: "lookup" }], isCompletionConditionFulfilled: true })
    expect(both).toMatchObject({ ok: false, reason: "INVALID_ARGUMENT" })
    expect(jobNodes(s)).toEqual(["tools"])
  })
})

// Unit tests of the pure core: compensation of multi-instance activities (Camunda 8: "if an activity has been
// completed more than once, the compensation handler is invoked for the same amount"). Each completed inner instance
// is recorded with the variables it saw (its inputElement and loopCounter included) and undone on its own, in reverse
// order of completion; inner instances that did not complete are not undone.
import { describe, expect, it } from "vitest"
import { definitions } from "../../support/BpmnXml.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { graphOfXml as graphOf } from "../../support/Graphs.ts"

const task = (id: string, extra = "", inner = "") =>
  `<bpmn:serviceTask id="${id}" ${extra}><bpmn:extensionElements><zeebe:taskDefinition type="${id}" />
  </bpmn:extensionElements>${inner}</bpmn:serviceTask>`
const loop = (sequential: boolean) =>
  `<bpmn:multiInstanceLoopCharacteristics isSequential="${sequential}"><bpmn:extensionElements>
    <zeebe:loopCharacteristics inputCollection="=rooms" inputElement="room" /></bpmn:extensionElements>
  </bpmn:multiInstanceLoopCharacteristics>`

const model = (activity: string, throwEvent = "") =>
  definitions(`<bpmn:process id="booking" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="book" />
    ${activity}
    <bpmn:boundaryEvent id="book-comp" attachedToRef="book"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
    ${task("undo-book", `isForCompensation="true"`)}
    <bpmn:association id="book-a" associationDirection="One" sourceRef="book-comp" targetRef="undo-book" />
    <bpmn:sequenceFlow id="f2" sourceRef="book" targetRef="undo" />
    ${
    throwEvent ||
    `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>`
  }
    <bpmn:sequenceFlow id="f3" sourceRef="undo" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>`)

type Scenario = ReturnType<typeof scenario>
const complete = (s: Scenario, node: string, pick: (variables: Record<string, unknown>) => boolean = () => true) => {
  const job = s.waiting("job").find((j) => {
    if (j.node !== node) return false
    const created = s.events.find((e) => e.type === "JobCreated" && e.jobId === j.id)
    return pick((created as { variables?: Record<string, unknown> }).variables ?? {})
  })
  expect(job, `a job at ${node}`).toBeDefined()
  const result = s.run({ type: "CompleteJob", jobId: job!.id, variables: {} })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}
const handlerRuns = (s: Scenario) =>
  s.events.flatMap((e) =>
    e.type === "JobCreated" && e.nodeId === "undo-book"
      ? [(e as { variables?: Record<string, unknown> }).variables ?? {}]
      : []
  )

describe("compensation of multi-instance activities", () => {
  it("sequential: one handler per completed inner instance, last completed first, each with its own variables", async () => {
    const s = scenario(await graphOf(model(task("book", "", loop(true)))))
    s.start({ rooms: ["A", "B", "C"] })
    for (let i = 0; i < 3; i++) complete(s, "book")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-book"])
    for (let i = 0; i < 3; i++) complete(s, "undo-book")
    expect(s.state.status).toBe("COMPLETED")
    expect(handlerRuns(s).map((v) => [v["room"], v["loopCounter"]])).toEqual([["C", 3], ["B", 2], ["A", 1]])
  })

  it("parallel: the handlers run in reverse order of completion, not of the items", async () => {
    const s = scenario(await graphOf(model(task("book", "", loop(false)))))
    s.start({ rooms: ["A", "B", "C"] })
    complete(s, "book", (v) => v["room"] === "B")
    complete(s, "book", (v) => v["room"] === "C")
    complete(s, "book", (v) => v["room"] === "A")
    for (let i = 0; i < 3; i++) complete(s, "undo-book")
    expect(s.state.status).toBe("COMPLETED")
    expect(handlerRuns(s).map((v) => v["room"])).toEqual(["A", "C", "B"])
  })

  it("an activityRef naming the multi-instance activity undoes each of its inner instances", async () => {
    const xml = model(
      task("book", "", loop(false)),
      `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="book" />
      </bpmn:intermediateThrowEvent>`
    )
    const s = scenario(await graphOf(xml))
    s.start({ rooms: ["A", "B"] })
    complete(s, "book", (v) => v["room"] === "A")
    complete(s, "book", (v) => v["room"] === "B")
    complete(s, "undo-book")
    complete(s, "undo-book")
    expect(handlerRuns(s).map((v) => v["room"])).toEqual(["B", "A"])
    expect(s.state.status).toBe("COMPLETED")
  })

  it("a multi-instance body that is interrupted leaves nothing of it to compensate", async () => {
    const xml = model(task("book", "", loop(false))).replace(
      `<bpmn:sequenceFlow id="f2" sourceRef="book" targetRef="undo" />`,
      `<bpmn:boundaryEvent id="cancel" attachedToRef="book"><bpmn:messageEventDefinition messageRef="m" />
      </bpmn:boundaryEvent><bpmn:sequenceFlow id="f2" sourceRef="cancel" targetRef="undo" />
      <bpmn:sequenceFlow id="f2b" sourceRef="book" targetRef="end" />`
    ).replace(
      `</bpmn:process>`,
      `</bpmn:process><bpmn:message id="m" name="stop"><bpmn:extensionElements>
      <zeebe:subscription correlationKey="=&quot;k&quot;" /></bpmn:extensionElements></bpmn:message>`
    )
    const s = scenario(await graphOf(xml))
    s.start({ rooms: ["A", "B"] })
    complete(s, "book", (v) => v["room"] === "A")
    const opened = s.events.find((e) => e.type === "BoundaryOpened") as { subscriptionId: string }
    expect(opened).toBeDefined()
    expect(s.state.compensable ?? []).toHaveLength(1)
    const result = s.run({ type: "CorrelateMessage", subscriptionId: opened.subscriptionId, variables: {} })
    expect(result.ok, JSON.stringify(result)).toBe(true)
    expect(handlerRuns(s)).toEqual([])
    expect(s.state.status).toBe("COMPLETED")
  })

  it("a multi-instance subprocess: each completed iteration's inner activities are undone, with its variables", async () => {
    const xml = model(
      `<bpmn:subProcess id="book">${loop(true)}
        <bpmn:startEvent id="s-start" /><bpmn:sequenceFlow id="s1" sourceRef="s-start" targetRef="pay" />
        ${task("pay")}
        <bpmn:boundaryEvent id="pay-comp" attachedToRef="pay"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
        ${task("refund", `isForCompensation="true"`)}
        <bpmn:association id="pay-a" associationDirection="One" sourceRef="pay-comp" targetRef="refund" />
        <bpmn:sequenceFlow id="s2" sourceRef="pay" targetRef="s-end" /><bpmn:endEvent id="s-end" />
      </bpmn:subProcess>`
    )
    const s = scenario(await graphOf(xml))
    s.start({ rooms: ["A", "B"] })
    complete(s, "pay")
    complete(s, "pay")
    // the subprocess's own handler (per iteration) first, then what completed inside that iteration
    const order: Array<string> = []
    for (let i = 0; i < 4; i++) {
      const next = s.waiting("job")[0]!
      const created = s.events.find((e) => e.type === "JobCreated" && e.jobId === next.id) as {
        variables?: Record<string, unknown>
      }
      order.push(`${next.node}:${created.variables?.["room"]}`)
      complete(s, next.node)
    }
    expect(order).toEqual(["undo-book:B", "refund:B", "undo-book:A", "refund:A"])
    expect(s.state.status).toBe("COMPLETED")
  })
})

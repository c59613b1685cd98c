// Unit tests of the pure core: compensation reaching into completed embedded subprocesses (a throw event outside
// compensates the activities completed inside, in reverse order of completion, with the variables they had), the
// records of terminated subprocesses going with them, and the budget of records kept per instance.
import { describe, expect, it } from "vitest"
import { execute } from "../../../src/engine/Execute.ts"
import { MAX_COMPENSABLE } from "../../../src/engine/InstanceState.ts"
import { definitions } from "../../support/BpmnXml.ts"
import { compensated, xmlServiceTask } from "../../support/CompensationModels.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"

/** start -> booking (subprocess: flight -> hotel) -> car -> throw event -> end; `extra` goes at process level. */
const model = (throwEvent: string, extra = "") =>
  definitions(`<bpmn:process id="trip" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="booking" />
    <bpmn:subProcess id="booking">
      <bpmn:startEvent id="b-start" />
      <bpmn:sequenceFlow id="b1" sourceRef="b-start" targetRef="flight" />
      ${compensated("flight")}
      <bpmn:sequenceFlow id="b2" sourceRef="flight" targetRef="hotel" />
      ${compensated("hotel")}
      <bpmn:sequenceFlow id="b3" sourceRef="hotel" targetRef="b-end" />
      <bpmn:endEvent id="b-end" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="booking" targetRef="car" />
    ${compensated("car")}
    <bpmn:sequenceFlow id="f3" sourceRef="car" targetRef="undo" />
    ${throwEvent}
    <bpmn:sequenceFlow id="f4" sourceRef="undo" targetRef="end" /><bpmn:endEvent id="end" />
    ${extra}
  </bpmn:process>`)
const throwAll =
  `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>`
const throwFor = (activity: string) =>
  `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="${activity}" /></bpmn:intermediateThrowEvent>`

type Scenario = ReturnType<typeof scenario>
const jobsCreated = (s: Scenario) => s.events.flatMap((e) => (e.type === "JobCreated" ? [e.nodeId] : []))
const complete = (s: Scenario, node: string, variables: Record<string, unknown> = {}) => {
  const job = s.waiting("job").find((j) => j.node === node)
  expect(job, `a job at ${node}`).toBeDefined()
  const result = s.run({ type: "CompleteJob", jobId: job!.id, variables })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}
const book = (s: Scenario) => {
  s.start({ trip: "T-1" })
  complete(s, "flight", { flightNo: "AF1" })
  complete(s, "hotel", { room: 12, flightNo: "changed" })
  complete(s, "car", { plate: "AB-123" })
}

describe("compensation of completed subprocesses", () => {
  it("a throw event outside runs the handlers of the activities completed inside, in reverse order, with their variables", async () => {
    const s = scenario(await graphOf(model(throwAll)))
    book(s)
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-car"])
    complete(s, "undo-car")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-hotel"])
    complete(s, "undo-hotel")
    const undoFlight = s.events.find((e) => e.type === "JobCreated" && e.nodeId === "undo-flight")
    // the flight's handler sees the variables as they were when the flight completed
    expect(undoFlight).toMatchObject({ variables: { trip: "T-1", flightNo: "AF1" } })
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).toEqual(["flight", "hotel", "car", "undo-car", "undo-hotel", "undo-flight"])
    expect(s.state.compensable ?? []).toEqual([])
  })

  it("activityRef naming the subprocess compensates what completed inside it, and only that", async () => {
    const s = scenario(await graphOf(model(throwFor("booking"))))
    book(s)
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-hotel"])
    complete(s, "undo-hotel")
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-car")
  })

  it("a subprocess with a handler of its own: its handler first (it completed last), then those inside", async () => {
    const own =
      `<bpmn:boundaryEvent id="booking-comp" attachedToRef="booking"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
      ${xmlServiceTask("undo-booking", `isForCompensation="true"`)}
      <bpmn:association id="booking-a" associationDirection="One" sourceRef="booking-comp" targetRef="undo-booking" />`
    const s = scenario(await graphOf(model(throwFor("booking"), own)))
    book(s)
    for (const node of ["undo-booking", "undo-hotel", "undo-flight"]) {
      expect(s.waiting("job").map((j) => j.node)).toEqual([node])
      complete(s, node)
    }
    expect(s.state.status).toBe("COMPLETED")
  })

  it("a subprocess that did not complete (terminated by a boundary event) leaves nothing to compensate", async () => {
    const timer = `<bpmn:boundaryEvent id="late" attachedToRef="booking"><bpmn:timerEventDefinition>
        <bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
      <bpmn:sequenceFlow id="f5" sourceRef="late" targetRef="car" />`
    const s = scenario(await graphOf(model(throwAll, timer)))
    s.start()
    complete(s, "flight")
    expect(s.state.compensable?.map((c) => c.nodeId)).toEqual(["flight"])
    const armed = Object.values(s.state.boundaries ?? {}).find((b) => b.nodeId === "late")!
    expect(s.run({ type: "FireTimer", subscriptionId: armed.subscriptionId }).ok).toBe(true)
    expect(s.state.compensable ?? []).toEqual([])
    complete(s, "car")
    complete(s, "undo-car")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-flight")
  })

  it("refuses at deploy an activityRef naming a subprocess with nothing compensable inside", async () => {
    const xml = model(throwFor("booking"))
      .replace(compensated("flight"), xmlServiceTask("flight"))
      .replace(compensated("hotel"), xmlServiceTask("hotel"))
    const compiled = await compile(xml)
    expect(JSON.stringify(!compiled.ok && compiled.problems)).toMatch(/undo compensates booking/)
  })
})

describe("the budget of compensation records", () => {
  it(`keeps at most ${MAX_COMPENSABLE}: the oldest is dropped with a CompensableDropped event`, async () => {
    const graph = await graphOf(model(throwAll))
    const instanceId = "00000000-0000-7000-8000-000000000002"
    const started = execute(graph, instanceId, undefined, { type: "StartInstance", variables: {} })
    if (!started.ok) throw new Error("not started")
    const old = Array.from({ length: MAX_COMPENSABLE }, (_, i) => ({
      nodeId: "car",
      scopeId: instanceId,
      variables: { i }
    }))
    const full = { ...started.state, compensable: old }
    const token = Object.values(full.tokens).find((t) => t.wait?.kind === "job")!
    const jobId = token.wait?.kind === "job" ? token.wait.jobId : ""
    const result = execute(graph, instanceId, full, { type: "CompleteJob", jobId, variables: {} })
    if (!result.ok) throw new Error(JSON.stringify(result))
    expect(result.events.filter((e) => e.type === "CompensableDropped")).toEqual([
      { type: "CompensableDropped", nodeId: "car", scopeId: instanceId, limit: MAX_COMPENSABLE }
    ])
    expect(result.state.compensable).toHaveLength(MAX_COMPENSABLE)
    expect(result.state.compensable![0]!.variables).toEqual({ i: 1 })
    expect(result.state.compensable![MAX_COMPENSABLE - 1]!.nodeId).toBe("flight")
  })
})

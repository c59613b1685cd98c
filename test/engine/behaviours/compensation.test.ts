// Unit tests of the pure core: compensation (BPMN 10.5.6 as Camunda 8.5+ runs it), read from BPMN XML. Completed
// activities with a compensation handler are undone by a compensation throw event, in reverse order of completion,
// each handler seeing the variables its activity had; an activity is undone once.
import { describe, expect, it } from "vitest"
import { definitions } from "../../support/BpmnXml.ts"
import { compensated } from "../../support/CompensationModels.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"

const model = (throwEvent: string) =>
  definitions(`<bpmn:process id="booking" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="flight" />
    ${compensated("flight")}
    <bpmn:sequenceFlow id="f2" sourceRef="flight" targetRef="hotel" />
    ${compensated("hotel")}
    <bpmn:sequenceFlow id="f3" sourceRef="hotel" targetRef="undo" />
    ${throwEvent}
  </bpmn:process>`)

const throwAll =
  `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>
  <bpmn:sequenceFlow id="f4" sourceRef="undo" targetRef="end" /><bpmn:endEvent id="end" />`

type Scenario = ReturnType<typeof scenario>
const jobsCreated = (s: Scenario) => s.events.flatMap((e) => (e.type === "JobCreated" ? [e.nodeId] : []))
const complete = (s: Scenario, node: string, variables: Record<string, unknown> = {}) => {
  const job = s.waiting("job").find((j) => j.node === node)
  expect(job, `a job at ${node}`).toBeDefined()
  const result = s.run({ type: "CompleteJob", jobId: job!.id, variables })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}

describe("compensation", () => {
  it("undoes the completed activities in reverse order, each handler with the variables its activity had", async () => {
    const s = scenario(await graphOf(model(throwAll)))
    s.start({ trip: "T-1" })
    complete(s, "flight", { flightNo: "AF1" })
    complete(s, "hotel", { room: 12, flightNo: "changed" })
    // hotel completed last: it is undone first
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-hotel"])
    const undoHotel = s.events.find((e) => e.type === "JobCreated" && e.nodeId === "undo-hotel")
    expect(undoHotel).toMatchObject({ variables: { trip: "T-1", room: 12, flightNo: "changed" } })
    complete(s, "undo-hotel")
    const undoFlight = s.events.find((e) => e.type === "JobCreated" && e.nodeId === "undo-flight")
    // the flight's handler sees the variables as they were when the flight completed (flightNo was changed since)
    expect(undoFlight).toMatchObject({ variables: { trip: "T-1", flightNo: "AF1" } })
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).toEqual(["flight", "hotel", "undo-hotel", "undo-flight"])
  })

  it("undoes only the activity a throw event names (activityRef)", async () => {
    const s = scenario(
      await graphOf(
        model(`<bpmn:endEvent id="undo"><bpmn:compensateEventDefinition activityRef="flight" /></bpmn:endEvent>`)
      )
    )
    s.start()
    complete(s, "flight")
    complete(s, "hotel")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["undo-flight"])
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-hotel")
  })

  it("passes straight through when nothing was completed that can be compensated", async () => {
    const xml = model(throwAll).replace(
      `<bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="flight" />`,
      `<bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="undo-first" />
       <bpmn:intermediateThrowEvent id="undo-first"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>
       <bpmn:sequenceFlow id="f0" sourceRef="undo-first" targetRef="flight" />`
    )
    const s = scenario(await graphOf(xml))
    s.start()
    expect(s.waiting("job").map((j) => j.node)).toEqual(["flight"])
  })

  it("refuses at deploy a compensation boundary without its handler, and a handler with sequence flows", async () => {
    const noHandler = await compile(
      model(throwAll).replace(
        `<bpmn:association id="hotel-a" associationDirection="One" sourceRef="hotel-comp" targetRef="undo-hotel" />`,
        ""
      )
    )
    expect(JSON.stringify(!noHandler.ok && noHandler.problems)).toMatch(/hotel-comp needs one association/)
    const wrongTarget = await compile(
      model(`<bpmn:endEvent id="undo"><bpmn:compensateEventDefinition activityRef="start" /></bpmn:endEvent>`)
    )
    expect(JSON.stringify(!wrongTarget.ok && wrongTarget.problems)).toMatch(/compensates start/)
  })
})

// Unit tests of the pure core: compensation event subprocesses (BPMN 10.5.6). Compensating a completed subprocess
// that has one runs it instead of the handlers of the activities completed inside, with the subprocess's variables as
// they were when it completed; a compensation throw event inside it compensates those activities.
import { describe, expect, it } from "vitest"
import { execute } from "../../../src/engine/Execute.ts"
import { MAX_COMPENSABLE } from "../../../src/engine/InstanceState.ts"
import { definitions } from "../../support/BpmnXml.ts"
import { compensated, xmlServiceTask } from "../../support/CompensationModels.ts"
import { scenario } from "../../support/EngineScenario.ts"
import { compileXml as compile, graphOfXml as graphOf } from "../../support/Graphs.ts"

/** The compensation event subprocess of booking: refund, then `inner` (a compensation throw event, or nothing). */
const eventSubprocess = (inner = "") =>
  `<bpmn:subProcess id="on-undo" triggeredByEvent="true">
    <bpmn:startEvent id="cs"><bpmn:compensateEventDefinition /></bpmn:startEvent>
    <bpmn:sequenceFlow id="e1" sourceRef="cs" targetRef="refund" />
    ${xmlServiceTask("refund")}
    <bpmn:sequenceFlow id="e2" sourceRef="refund" targetRef="${inner === "" ? "ce" : "inner"}" />
    ${inner === "" ? "" : `${inner}<bpmn:sequenceFlow id="e3" sourceRef="inner" targetRef="ce" />`}
    <bpmn:endEvent id="ce" />
  </bpmn:subProcess>`
const innerThrow = (activityRef?: string) =>
  `<bpmn:intermediateThrowEvent id="inner"><bpmn:compensateEventDefinition ${
    activityRef === undefined ? "" : `activityRef="${activityRef}"`
  } /></bpmn:intermediateThrowEvent>`

/** start -> booking (flight -> hotel; its local bookingRef) -> car -> undo (compensation throw) -> end. */
const model = (options: { esp?: string; throwEvent?: string; extra?: string; bookingExtra?: string } = {}) =>
  definitions(`<bpmn:process id="trip" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="booking" />
    <bpmn:subProcess id="booking" ${options.bookingExtra ?? ""}>
      <bpmn:extensionElements><zeebe:ioMapping><zeebe:input source="=trip + &quot;-B&quot;" target="bookingRef" />
      </zeebe:ioMapping></bpmn:extensionElements>
      <bpmn:startEvent id="b-start" />
      <bpmn:sequenceFlow id="b1" sourceRef="b-start" targetRef="flight" />
      ${compensated("flight")}
      <bpmn:sequenceFlow id="b2" sourceRef="flight" targetRef="hotel" />
      ${compensated("hotel")}
      <bpmn:sequenceFlow id="b3" sourceRef="hotel" targetRef="b-end" />
      <bpmn:endEvent id="b-end" />
      ${options.esp ?? eventSubprocess()}
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="booking" targetRef="car" />
    ${compensated("car")}
    <bpmn:sequenceFlow id="f3" sourceRef="car" targetRef="undo" />
    ${
    options.throwEvent ??
      `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>`
  }
    <bpmn:sequenceFlow id="f4" sourceRef="undo" targetRef="end" /><bpmn:endEvent id="end" />
    ${options.extra ?? ""}
  </bpmn:process>`)

const problemsOf = async (xml: string) => {
  const compiled = await compile(xml)
  return JSON.stringify(!compiled.ok && compiled.problems)
}

type Scenario = ReturnType<typeof scenario>
const jobsCreated = (s: Scenario) => s.events.flatMap((e) => (e.type === "JobCreated" ? [e.nodeId] : []))
const complete = (s: Scenario, node: string, variables: Record<string, unknown> = {}) => {
  const job = s.waiting("job").find((j) => j.node === node)
  expect(job, `a job at ${node}`).toBeDefined()
  const result = s.run({ type: "CompleteJob", jobId: job!.id, variables })
  expect(result.ok, JSON.stringify(result)).toBe(true)
}
const waitingJobs = (s: Scenario) => s.waiting("job").map((j) => j.node)
const book = (s: Scenario) => {
  s.start({ trip: "T-1" })
  complete(s, "flight", { flightNo: "AF1" })
  complete(s, "hotel", { room: 12 })
  complete(s, "car", { plate: "AB-123", room: 13 })
}

describe("compensation event subprocesses", () => {
  it("run instead of the handlers inside the subprocess, with its variables as it completed", async () => {
    const s = scenario(await graphOf(model()))
    book(s)
    expect(waitingJobs(s)).toEqual(["undo-car"])
    complete(s, "undo-car")
    expect(waitingJobs(s)).toEqual(["refund"])
    // bookingRef was booking's own variable: gone from the process, back for its compensation
    expect(s.jobVariables(s.waiting("job")[0]!.id))
      .toMatchObject({ trip: "T-1", bookingRef: "T-1-B", flightNo: "AF1", room: 13 })
    expect(s.state.tokens[Object.keys(s.state.tokens).find((id) => s.state.tokens[id]!.nodeId === "undo")!]?.wait)
      .toMatchObject({ kind: "compensation" })
    complete(s, "refund")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).toEqual(["flight", "hotel", "car", "undo-car", "refund"])
    expect(s.state.compensable ?? []).toEqual([])
  })

  it("of a multi-instance subprocess: one run per completed iteration, with that iteration's variables", async () => {
    const xml = model({ esp: eventSubprocess(innerThrow()) }).replace(
      `</zeebe:ioMapping></bpmn:extensionElements>`,
      `</zeebe:ioMapping></bpmn:extensionElements><bpmn:multiInstanceLoopCharacteristics isSequential="true">
        <bpmn:extensionElements><zeebe:loopCharacteristics inputCollection="=[&quot;A&quot;, &quot;B&quot;]"
        inputElement="leg" /></bpmn:extensionElements></bpmn:multiInstanceLoopCharacteristics>`
    )
    const s = scenario(await graphOf(xml))
    s.start({ trip: "T-1" })
    for (const leg of ["A", "B"]) {
      complete(s, "flight", { flightNo: `F-${leg}` })
      complete(s, "hotel")
    }
    complete(s, "car")
    complete(s, "undo-car")
    const seen: Array<string> = []
    while (s.state.status === "ACTIVE") {
      const next = s.waiting("job")[0]!
      const variables = s.jobVariables(next.id)
      seen.push(`${next.node}:${variables?.["leg"]}:${variables?.["flightNo"]}`)
      complete(s, next.node)
    }
    // the later iteration first; inside each run, its own activities in reverse order with their variables (the event
    // subprocess itself sees its iteration's `leg` and the enclosing scopes' current values: flightNo is the process's)
    expect(seen).toEqual([
      "refund:B:F-B",
      "undo-hotel:B:F-B",
      "undo-flight:B:F-B",
      "refund:A:F-B",
      "undo-hotel:A:F-A",
      "undo-flight:A:F-A"
    ])
    expect(s.state.compensable ?? []).toEqual([])
  })

  it("a compensation throw event inside compensates the subprocess's activities in reverse order", async () => {
    const s = scenario(await graphOf(model({ esp: eventSubprocess(innerThrow()) })))
    book(s)
    complete(s, "undo-car")
    complete(s, "refund")
    expect(waitingJobs(s)).toEqual(["undo-hotel"])
    complete(s, "undo-hotel")
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ trip: "T-1", flightNo: "AF1", bookingRef: "T-1-B" })
    expect(s.state.status).toBe("ACTIVE")
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).toEqual(["flight", "hotel", "car", "undo-car", "refund", "undo-hotel", "undo-flight"])
  })

  it("inside it, an activityRef names one activity of the subprocess; what is left is not compensated", async () => {
    const s = scenario(await graphOf(model({ esp: eventSubprocess(innerThrow("flight")) })))
    book(s)
    complete(s, "undo-car")
    complete(s, "refund")
    expect(waitingJobs(s)).toEqual(["undo-flight"])
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-hotel")
    expect(s.state.compensable ?? []).toEqual([])
  })

  it("a throw event naming the subprocess (activityRef) runs its event subprocess, and only that", async () => {
    const throwEvent =
      `<bpmn:endEvent id="undo"><bpmn:compensateEventDefinition activityRef="booking" /></bpmn:endEvent>`
    const xml = model({ throwEvent, esp: eventSubprocess(innerThrow()) }).replace(
      `<bpmn:sequenceFlow id="f4" sourceRef="undo" targetRef="end" /><bpmn:endEvent id="end" />`,
      ""
    )
    const s = scenario(await graphOf(xml))
    book(s)
    expect(waitingJobs(s)).toEqual(["refund"])
    complete(s, "refund")
    complete(s, "undo-hotel")
    complete(s, "undo-flight")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-car")
  })

  it("does not run for a subprocess that did not complete, nor while it runs", async () => {
    const timer = `<bpmn:boundaryEvent id="late" attachedToRef="booking"><bpmn:timerEventDefinition>
        <bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
      <bpmn:sequenceFlow id="f5" sourceRef="late" targetRef="car" />`
    const s = scenario(await graphOf(model({ extra: timer })))
    s.start({ trip: "T-1" })
    expect(Object.values(s.state.boundaries ?? {}).map((b) => b.nodeId)).toEqual(["late"])
    complete(s, "flight")
    const armed = Object.values(s.state.boundaries ?? {}).find((b) => b.nodeId === "late")!
    expect(s.run({ type: "FireTimer", subscriptionId: armed.subscriptionId }).ok).toBe(true)
    complete(s, "car")
    complete(s, "undo-car")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("refund")
  })
})

describe("the records kept with a subprocess", () => {
  it("count toward the budget: the oldest record is dropped with all it keeps", async () => {
    const graph = await graphOf(model())
    const instanceId = "00000000-0000-7000-8000-000000000003"
    const started = execute(graph, instanceId, undefined, { type: "StartInstance", variables: { trip: "T-1" } })
    if (!started.ok) throw new Error("not started")
    const inner = Array.from({ length: MAX_COMPENSABLE - 1 }, (_, i) => ({
      nodeId: "flight",
      scopeId: "old-scope",
      variables: { i }
    }))
    const full = { ...started.state, compensable: [{ nodeId: "booking", scopeId: instanceId, variables: {}, inner }] }
    const token = Object.values(full.tokens).find((t) => t.wait?.kind === "job")!
    const jobId = token.wait?.kind === "job" ? token.wait.jobId : ""
    const result = execute(graph, instanceId, full, { type: "CompleteJob", jobId, variables: {} })
    if (!result.ok) throw new Error(JSON.stringify(result))
    expect(result.events.filter((e) => e.type === "CompensableDropped")).toEqual([
      { type: "CompensableDropped", nodeId: "booking", scopeId: instanceId, limit: MAX_COMPENSABLE }
    ])
    expect(result.state.compensable?.map((c) => c.nodeId)).toEqual(["flight"])
  })

  it("a throw event naming an outer subprocess reaches the event subprocess of one inside it", async () => {
    const xml = model({
      throwEvent: `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="outer" />
        </bpmn:intermediateThrowEvent>`
    })
      .replace(
        `<bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="booking" />`,
        `<bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="outer" />
        <bpmn:subProcess id="outer"><bpmn:startEvent id="o-start" />
        <bpmn:sequenceFlow id="o1" sourceRef="o-start" targetRef="booking" />`
      )
      .replace(
        `<bpmn:sequenceFlow id="f2" sourceRef="booking" targetRef="car" />`,
        `<bpmn:sequenceFlow id="o2" sourceRef="booking" targetRef="o-end" />
        <bpmn:endEvent id="o-end" /></bpmn:subProcess>
        <bpmn:sequenceFlow id="f2" sourceRef="outer" targetRef="car" />`
      )
    const s = scenario(await graphOf(xml))
    book(s)
    expect(waitingJobs(s)).toEqual(["refund"])
    expect(s.jobVariables(s.waiting("job")[0]!.id)).toMatchObject({ bookingRef: "T-1-B" })
    complete(s, "refund")
    expect(s.state.status).toBe("COMPLETED")
    expect(jobsCreated(s)).not.toContain("undo-car")
    expect(jobsCreated(s)).not.toContain("undo-hotel")
  })
})

describe("compensation event subprocesses at deploy", () => {
  it("are refused at the process level, by name", async () => {
    const xml = model({ esp: "", extra: eventSubprocess() })
    expect(await problemsOf(xml)).toMatch(/compensation event subprocess on-undo is at the process level/)
  })

  it("are refused next to a compensation boundary event, and non-interrupting", async () => {
    const both = model({
      extra: `<bpmn:boundaryEvent id="booking-comp" attachedToRef="booking"><bpmn:compensateEventDefinition />
        </bpmn:boundaryEvent>${xmlServiceTask("undo-booking", `isForCompensation="true"`)}
        <bpmn:association id="booking-a" sourceRef="booking-comp" targetRef="undo-booking" />`
    })
    expect(await problemsOf(both)).toMatch(
      /booking has a compensation boundary event and compensation event subprocess/
    )
    const nonInterrupting = model({
      esp: eventSubprocess().replace(`<bpmn:startEvent id="cs">`, `<bpmn:startEvent id="cs" isInterrupting="false">`)
    })
    expect(await problemsOf(nonInterrupting)).toMatch(/compensation start event cs cannot be non-interrupting/)
  })

  it("make the subprocess compensable by name; an activityRef inside names an activity of that subprocess", async () => {
    const xml = model({
      esp: eventSubprocess(innerThrow("hotel")),
      throwEvent: `<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="booking" />
        </bpmn:intermediateThrowEvent>`
    })
      .replace(compensated("flight"), xmlServiceTask("flight"))
    expect((await compile(xml)).ok).toBe(true)
    expect(await problemsOf(model({ esp: eventSubprocess(innerThrow("car")) }))).toMatch(/inner compensates car/)
  })
})

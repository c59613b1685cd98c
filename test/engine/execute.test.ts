// The pure core without IO: element behaviours, determinism, and replay == live.
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { execute } from "../../src/engine/Execute.ts"
import { type InstanceEvent, type InstanceState, replay } from "../../src/engine/InstanceState.ts"
import { readJsonGraph } from "../../src/bpmn/JsonGraph.ts"
import type { ProcessGraph } from "../../src/bpmn/ProcessGraph.ts"
import { graphOf } from "../support/Graphs.ts"
import type { InstanceCommand } from "../../src/engine/InstanceCommands.ts"


/** Runs commands in order, keeping every event, and checks replay == live after each one. */
const scenario = (graph: ProcessGraph, instanceId = "00000000-0000-7000-8000-000000000001") => {
  let state: InstanceState | undefined
  const events: Array<InstanceEvent> = []
  const run = (command: InstanceCommand) => {
    const result = execute(graph, instanceId, state, command)
    if (!result.ok) return result
    state = result.state
    events.push(...result.events)
    expect(replay(instanceId, events)).toEqual(state)
    return result
  }
  return {
    run,
    start: (variables: Record<string, unknown> = {}) => run({ type: "StartInstance", variables }),
    get state() {
      return state!
    },
    events,
    waiting: (kind: "job" | "userTask") =>
      Object.values(state!.tokens).flatMap((t) => (t.wait?.kind === kind ? [{ node: t.nodeId, id: kind === "job" ? (t.wait as { jobId: string }).jobId : (t.wait as { taskId: string }).taskId }] : []))
  }
}

const serviceTask = (id: string, taskType: string, extra: Record<string, unknown> = {}) => ({ id, type: "serviceTask", properties: { taskType, ...extra } })

describe("service tasks and variables", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      serviceTask("a", "work", { inputMappings: [{ source: "= amount * 2", target: "doubled" }], outputMappings: [{ source: "= result + 1", target: "total" }] }),
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "a" }, { id: "f2", source: "a", target: "end" }]
  })

  it("creates a job with input mappings applied, and output mappings on completion", () => {
    const s = scenario(graph)
    s.start({ amount: 21 })
    const created = s.events.find((e) => e.type === "JobCreated")
    expect(created).toMatchObject({ jobType: "work", variables: { amount: 21, doubled: 42 } })
    const [job] = s.waiting("job")
    s.run({ type: "CompleteJob", jobId: job!.id, variables: { result: 9 } })
    expect(s.state.status).toBe("COMPLETED")
    expect(s.state.variables).toEqual({ amount: 21, total: 10 })
  })

  it("is deterministic: the same commands give the same events", () => {
    const a = scenario(graph)
    const b = scenario(graph)
    a.start({ amount: 1 })
    b.start({ amount: 1 })
    a.run({ type: "CompleteJob", jobId: a.waiting("job")[0]!.id, variables: { result: 1 } })
    b.run({ type: "CompleteJob", jobId: b.waiting("job")[0]!.id, variables: { result: 1 } })
    expect(a.events).toEqual(b.events)
  })

  it("rejects an unknown job and changes nothing", () => {
    const s = scenario(graph)
    s.start()
    const before = s.state
    const result = s.run({ type: "CompleteJob", jobId: "nope", variables: {} })
    expect(result).toMatchObject({ ok: false, reason: "NOT_FOUND" })
    expect(s.state).toBe(before)
  })
})

describe("gateways", () => {
  const branching = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "gw", type: "exclusiveGateway" },
      { id: "big", type: "endEvent" },
      { id: "small", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "start", target: "gw" },
      { id: "toBig", source: "gw", target: "big", condition: "= amount > 100" },
      { id: "toSmall", source: "gw", target: "small", condition: "= amount <= 100" }
    ]
  })

  it("exclusive: takes the first true condition", () => {
    const s = scenario(branching)
    s.start({ amount: 500 })
    expect(s.events.filter((e) => e.type === "FlowTaken").map((e) => (e as { flowId: string }).flowId)).toEqual(["f0", "toBig"])
    expect(s.state.status).toBe("COMPLETED")
  })

  it("exclusive: no true condition and no default raises an incident; the token waits", () => {
    const s = scenario(branching)
    s.start({})
    expect(s.state.status).toBe("ACTIVE")
    const incidents = Object.values(s.state.incidents)
    expect(incidents).toHaveLength(1)
    expect(incidents[0]).toMatchObject({ nodeId: "gw", type: "CONDITION_ERROR" })
  })

  it("parallel: forks, and the join waits for every incoming flow", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "fork", type: "parallelGateway" },
        serviceTask("a", "a"),
        serviceTask("b", "b"),
        { id: "join", type: "parallelGateway" },
        serviceTask("after", "after"),
        { id: "end", type: "endEvent" }
      ],
      flows: [
        { id: "f0", source: "start", target: "fork" },
        { id: "fa", source: "fork", target: "a" },
        { id: "fb", source: "fork", target: "b" },
        { id: "ja", source: "a", target: "join" },
        { id: "jb", source: "b", target: "join" },
        { id: "f1", source: "join", target: "after" },
        { id: "f2", source: "after", target: "end" }
      ]
    }))
    s.start()
    const jobs = s.waiting("job")
    expect(jobs.map((j) => j.node).sort()).toEqual(["a", "b"])
    s.run({ type: "CompleteJob", jobId: jobs.find((j) => j.node === "a")!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["b"])
    s.run({ type: "CompleteJob", jobId: jobs.find((j) => j.node === "b")!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
  })
})

describe("other elements and instance commands", () => {
  it("script task sets its result variable", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, { id: "calc", type: "scriptTask", properties: { expression: "= a + b", resultVariable: "sum" } }, { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "calc" }, { id: "f2", source: "calc", target: "end" }]
    }))
    s.start({ a: 2, b: 3 })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { a: 2, b: 3, sum: 5 } })
  })

  it("terminate end event cancels the other paths and completes the instance", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" }, { id: "fork", type: "parallelGateway" }, serviceTask("slow", "slow"),
        { id: "stop", type: "endEvent", properties: { terminate: true } }, { id: "end", type: "endEvent" }
      ],
      flows: [
        { id: "f0", source: "start", target: "fork" }, { id: "f1", source: "fork", target: "slow" },
        { id: "f2", source: "fork", target: "stop" }, { id: "f3", source: "slow", target: "end" }
      ]
    }))
    s.start()
    expect(s.state.status).toBe("COMPLETED")
    expect(s.events.map((e) => e.type)).toContain("JobCanceled")
  })

  it("holds completions while suspended and applies them in order on resume", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, serviceTask("a", "a"), { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "a" }, { id: "f2", source: "a", target: "end" }]
    }))
    s.start()
    const [job] = s.waiting("job")
    s.run({ type: "SuspendInstance" })
    s.run({ type: "CompleteJob", jobId: job!.id, variables: { x: 1 } })
    expect(s.state).toMatchObject({ status: "SUSPENDED", deferred: [{ type: "CompleteJob" }] })
    expect(s.run({ type: "SuspendInstance" })).toMatchObject({ ok: false, reason: "INVALID_STATE" })
    s.run({ type: "ResumeInstance" })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { x: 1 }, deferred: [] })
  })

  it("cancel withdraws jobs and tasks; a finished instance rejects commands", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [{ id: "start", type: "startEvent" }, { id: "t", type: "userTask", properties: { candidateGroups: "a, b" } }, { id: "end", type: "endEvent" }],
      flows: [{ id: "f1", source: "start", target: "t" }, { id: "f2", source: "t", target: "end" }]
    }))
    s.start()
    expect(s.events.find((e) => e.type === "UserTaskCreated")).toMatchObject({ candidateGroups: ["a", "b"] })
    s.run({ type: "CancelInstance" })
    expect(s.state.status).toBe("CANCELED")
    expect(s.events.map((e) => e.type)).toContain("UserTaskCanceled")
    expect(s.run({ type: "CancelInstance" })).toMatchObject({ ok: false, reason: "INVALID_STATE" })
  })
})

describe("waiting for messages", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "paid", type: "intermediateCatchEvent", properties: { messageName: "payment", correlationKey: "= orderId" } },
      { id: "confirm", type: "receiveTask", properties: { messageName: "confirmation", correlationKey: "= \"C-\" + orderId" } },
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "paid" }, { id: "f2", source: "paid", target: "confirm" }, { id: "f3", source: "confirm", target: "end" }]
  })
  const opened = (events: ReadonlyArray<InstanceEvent>) =>
    events.filter((e): e is Extract<InstanceEvent, { type: "MessageSubscriptionOpened" }> => e.type === "MessageSubscriptionOpened")

  it("opens a subscription with the correlation key evaluated on arrival, and moves on when it is correlated", () => {
    const s = scenario(graph)
    s.start({ orderId: "A-1" })
    const [first] = opened(s.events)
    expect(first).toMatchObject({ nodeId: "paid", messageName: "payment", correlationKey: "A-1" })
    s.run({ type: "CorrelateMessage", subscriptionId: first!.subscriptionId, variables: { amount: 10 } })
    const second = opened(s.events)[1]!
    expect(second).toMatchObject({ nodeId: "confirm", messageName: "confirmation", correlationKey: "C-A-1" })
    expect(s.run({ type: "CorrelateMessage", subscriptionId: first!.subscriptionId, variables: {} })).toMatchObject({ ok: false, reason: "NOT_FOUND" })
    s.run({ type: "CorrelateMessage", subscriptionId: second.subscriptionId, variables: {} })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { orderId: "A-1", amount: 10 } })
  })

  it("raises an incident when the correlation key is missing", () => {
    const s = scenario(graph)
    s.start({})
    expect(Object.values(s.state.incidents)[0]).toMatchObject({ nodeId: "paid", type: "EXTRACT_VALUE_ERROR" })
  })
})

describe("inclusive gateway", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "fork", type: "inclusiveGateway" },
      serviceTask("a", "a"),
      serviceTask("b", "b"),
      serviceTask("c", "c"),
      { id: "join", type: "inclusiveGateway" },
      serviceTask("after", "after"),
      { id: "end", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "start", target: "fork" },
      { id: "fa", source: "fork", target: "a", condition: "= wantA" },
      { id: "fb", source: "fork", target: "b", condition: "= wantB" },
      { id: "fc", source: "fork", target: "c", default: true },
      { id: "ja", source: "a", target: "join" },
      { id: "jb", source: "b", target: "join" },
      { id: "jc", source: "c", target: "join" },
      { id: "f1", source: "join", target: "after" },
      { id: "f2", source: "after", target: "end" }
    ]
  })
  const complete = (s: ReturnType<typeof scenario>, node: string) =>
    s.run({ type: "CompleteJob", jobId: s.waiting("job").find((j) => j.node === node)!.id, variables: {} })

  it("forks on every true condition and joins only the paths that were taken", () => {
    const s = scenario(graph)
    s.start({ wantA: true, wantB: true })
    expect(s.waiting("job").map((j) => j.node).sort()).toEqual(["a", "b"])
    complete(s, "a")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["b"])
    complete(s, "b")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("does not wait for a path that was not taken", () => {
    const s = scenario(graph)
    s.start({ wantA: true, wantB: false })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["a"])
    complete(s, "a")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("takes the default flow when no condition holds", () => {
    const s = scenario(graph)
    s.start({ wantA: false, wantB: false })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["c"])
    complete(s, "c")
    complete(s, "after")
    expect(s.state.status).toBe("COMPLETED")
  })
})

describe("embedded subprocess", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      {
        id: "sub", type: "subProcess",
        properties: {
          inputMappings: [{ source: "= 0", target: "attempts" }],
          outputMappings: [{ source: "= attempts", target: "attemptsUsed" }],
          nodes: [{ id: "subStart", type: "startEvent" }, serviceTask("inner", "inner"), { id: "subEnd", type: "endEvent" }],
          flows: [{ id: "s1", source: "subStart", target: "inner" }, { id: "s2", source: "inner", target: "subEnd" }]
        }
      },
      serviceTask("after", "after"),
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "sub" }, { id: "f2", source: "sub", target: "after" }, { id: "f3", source: "after", target: "end" }]
  })

  it("runs in its own scope: local variables stay inside, new ones go to the root, output mappings carry values out", () => {
    const s = scenario(graph)
    s.start({ order: 1 })
    const [inner] = s.waiting("job")
    expect(inner!.node).toBe("inner")
    const created = s.events.find((e) => e.type === "JobCreated" && e.nodeId === "inner")
    expect(created).toMatchObject({ variables: { order: 1, attempts: 0 } })
    // attempts exists in the subprocess scope: updated there; result is new: goes to the root
    s.run({ type: "CompleteJob", jobId: inner!.id, variables: { attempts: 3, result: "ok" } })
    expect(s.state.variables).toEqual({ order: 1, result: "ok", attemptsUsed: 3 })
    expect(s.state.scopes).toEqual({})
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })

  it("cancel closes the subprocess scope and withdraws its jobs", () => {
    const s = scenario(graph)
    s.start()
    s.run({ type: "CancelInstance" })
    expect(s.state).toMatchObject({ status: "CANCELED", scopes: {} })
    expect(s.events.map((e) => e.type)).toEqual(expect.arrayContaining(["JobCanceled", "ScopeClosed", "InstanceCanceled"]))
  })

  it("a terminate end event inside ends only the subprocess", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "sub", type: "subProcess",
          properties: {
            nodes: [
              { id: "ss", type: "startEvent" }, { id: "fork", type: "parallelGateway" }, serviceTask("slow", "slow"),
              { id: "stop", type: "endEvent", properties: { terminate: true } }, { id: "se", type: "endEvent" }
            ],
            flows: [{ id: "a", source: "ss", target: "fork" }, { id: "b", source: "fork", target: "slow" }, { id: "c", source: "fork", target: "stop" }, { id: "d", source: "slow", target: "se" }]
          }
        },
        serviceTask("after", "after"),
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "sub" }, { id: "f2", source: "sub", target: "after" }, { id: "f3", source: "after", target: "end" }]
    }))
    s.start()
    expect(s.state.status).toBe("ACTIVE")
    expect(s.waiting("job").map((j) => j.node)).toEqual(["after"])
  })
})

describe("multi-instance", () => {
  const mi = (sequential: boolean, type = "serviceTask", extra: Record<string, unknown> = {}) => graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      {
        id: "each", type,
        properties: {
          ...(type === "serviceTask" ? { taskType: "each" } : {}),
          multiInstance: { sequential, inputCollection: "= items", inputElement: "item", outputCollection: "results", outputElement: "= if bonus = null then item * 10 else item * 10 + bonus" },
          ...extra
        }
      },
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "each" }, { id: "f2", source: "each", target: "end" }]
  })
  const jobItems = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "JobCreated" }> => e.type === "JobCreated").map((e) => e.variables["item"])

  it("parallel: one job per item, results collected in item order whatever the completion order", () => {
    const s = scenario(mi(false))
    s.start({ items: [1, 2, 3] })
    expect(jobItems(s)).toEqual([1, 2, 3])
    const jobs = s.waiting("job")
    expect(jobs).toHaveLength(3)
    for (const job of [...jobs].reverse()) s.run({ type: "CompleteJob", jobId: job.id, variables: {} })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { items: [1, 2, 3], results: [10, 20, 30] } })
    expect(s.state.variables).not.toHaveProperty("item")
    expect(s.state.variables).not.toHaveProperty("loopCounter")
  })

  it("sequential: one item at a time, with loopCounter, each iteration seeing its own variables", () => {
    const s = scenario(mi(true))
    s.start({ items: [5, 6] })
    expect(s.waiting("job")).toHaveLength(1)
    expect(s.events.find((e) => e.type === "JobCreated")).toMatchObject({ variables: { item: 5, loopCounter: 1 } })
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: { bonus: 1 } })
    expect(jobItems(s)).toEqual([5, 6])
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    // bonus is new: it went to the root, so the second iteration saw it too
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { results: [51, 61], bonus: 1 } })
  })

  it("an empty collection completes at once; a non-list is an incident", () => {
    const empty = scenario(mi(false))
    empty.start({ items: [] })
    expect(empty.state).toMatchObject({ status: "COMPLETED", variables: { results: [] } })
    const wrong = scenario(mi(false))
    wrong.start({ items: 7 })
    expect(Object.values(wrong.state.incidents)[0]).toMatchObject({ nodeId: "each", type: "EXTRACT_VALUE_ERROR" })
  })

  it("works on subprocesses: each iteration runs the subprocess in its own scope", () => {
    const s = scenario(mi(false, "subProcess", {
      nodes: [{ id: "ss", type: "startEvent" }, { id: "calc", type: "scriptTask", properties: { expression: "= item + 1", resultVariable: "bonus" } }, { id: "se", type: "endEvent" }],
      flows: [{ id: "s1", source: "ss", target: "calc" }, { id: "s2", source: "calc", target: "se" }]
    }))
    s.start({ items: [1, 2], bonus: 0 })
    // bonus exists at the root: each iteration's script updates it there; results read it after each iteration
    expect(s.state.status).toBe("COMPLETED")
    expect((s.state.variables["results"] as Array<number>).length).toBe(2)
  })

  it("cancel withdraws every iteration", () => {
    const s = scenario(mi(false))
    s.start({ items: [1, 2] })
    s.run({ type: "CancelInstance" })
    expect(s.events.filter((e) => e.type === "JobCanceled")).toHaveLength(2)
    expect(s.state).toMatchObject({ status: "CANCELED", scopes: {} })
  })
})

describe("regressions", () => {
  it("an iteration that returns a variable named like the output collection does not wipe earlier results", () => {
    const s = scenario(graphOf({
      id: "p",
      nodes: [
        { id: "start", type: "startEvent" },
        { id: "each", type: "serviceTask", properties: { taskType: "each", multiInstance: { inputCollection: "= [1, 2]", inputElement: "item", outputCollection: "results", outputElement: "= item" } } },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "each" }, { id: "f2", source: "each", target: "end" }]
    }))
    s.start()
    const [first, second] = s.waiting("job")
    s.run({ type: "CompleteJob", jobId: first!.id, variables: { results: [null, null] } })
    s.run({ type: "CompleteJob", jobId: second!.id, variables: { results: [null, null] } })
    expect(s.state.variables["results"]).toEqual([1, 2])
  })
})

describe("business rule task", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "start", type: "startEvent" },
      { id: "rate", type: "businessRuleTask", properties: { decisionId: "risk", resultVariable: "assessment" } },
      { id: "end", type: "endEvent" }
    ],
    flows: [{ id: "f1", source: "start", target: "rate" }, { id: "f2", source: "rate", target: "end" }]
  })

  it("waits for the decision; every output becomes a variable and the whole result goes to resultVariable", () => {
    const s = scenario(graph)
    s.start({ amount: 10 })
    const requested = s.events.find((e): e is Extract<InstanceEvent, { type: "DecisionRequested" }> => e.type === "DecisionRequested")!
    expect(requested).toMatchObject({ decisionId: "risk", variables: { amount: 10 } })
    s.run({ type: "DecisionEvaluated", evaluationId: requested.evaluationId, result: { level: "low", score: 3 }, outputs: { level: "low", score: 3 } })
    expect(s.state).toMatchObject({ status: "COMPLETED", variables: { amount: 10, level: "low", score: 3, assessment: { level: "low", score: 3 } } })
  })

  it("a failed evaluation is an incident at the task", () => {
    const s = scenario(graph)
    s.start()
    const requested = s.events.find((e): e is Extract<InstanceEvent, { type: "DecisionRequested" }> => e.type === "DecisionRequested")!
    s.run({ type: "DecisionFailed", evaluationId: requested.evaluationId, message: "decision risk not found" })
    expect(Object.values(s.state.incidents)[0]).toMatchObject({ nodeId: "rate", type: "DECISION_EVALUATION_ERROR", message: "decision risk not found" })
  })
})

describe("timers", () => {
  it("schedules from the command's time (an input: the core reads no clock) and moves on when fired", () => {
    const graph = graphOf({
      id: "p",
      nodes: [{ id: "s", type: "startEvent" }, { id: "t", type: "intermediateCatchEvent", properties: { timeDuration: "P1DT2H" } }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
    })
    const now = Date.parse("2026-01-31T10:00:00Z")
    const started = execute(graph, "00000000-0000-7000-8000-0000000000aa", undefined, { type: "StartInstance", variables: {} }, now)
    if (!started.ok) throw new Error(started.message)
    const scheduled = started.events.find((e): e is Extract<InstanceEvent, { type: "TimerScheduled" }> => e.type === "TimerScheduled")!
    expect(scheduled.dueAt).toBe("2026-02-01T12:00:00.000Z")
    const fired = execute(graph, "00000000-0000-7000-8000-0000000000aa", started.state, { type: "FireTimer", subscriptionId: scheduled.subscriptionId }, now + 1)
    expect(fired.ok && fired.state.status).toBe("COMPLETED")
  })
})

describe("boundary events", () => {
  const withBoundary = (boundary: Record<string, unknown>, hostType = "serviceTask") => graphOf({
    id: "p",
    nodes: [
      { id: "s", type: "startEvent" },
      hostType === "serviceTask"
        ? { id: "host", type: "serviceTask", properties: { taskType: "work" } }
        : {
          id: "host", type: "subProcess",
          properties: {
            nodes: [{ id: "is", type: "startEvent" }, { id: "inner", type: "serviceTask", properties: { taskType: "inner" } }, { id: "ie", type: "endEvent" }],
            flows: [{ id: "i1", source: "is", target: "inner" }, { id: "i2", source: "inner", target: "ie" }]
          }
        },
      { id: "b", type: "boundaryEvent", properties: { attachedTo: "host", ...boundary } },
      { id: "side", type: "serviceTask", properties: { taskType: "side" } },
      { id: "done", type: "endEvent" },
      { id: "sideDone", type: "endEvent" }
    ],
    flows: [
      { id: "f1", source: "s", target: "host" }, { id: "f2", source: "host", target: "done" },
      { id: "f3", source: "b", target: "side" }, { id: "f4", source: "side", target: "sideDone" }
    ]
  }, )
  const opened = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "BoundaryOpened" }> => e.type === "BoundaryOpened")

  it("interrupting message: the task is withdrawn and the boundary path runs", () => {
    const s = scenario(withBoundary({ messageName: "cancel-order", correlationKey: "= orderId" }))
    s.start({ orderId: "O-1" })
    const [armed] = opened(s)
    expect(armed).toMatchObject({ kind: "message", name: "cancel-order", correlationKey: "O-1", nodeId: "b" })
    s.run({ type: "CorrelateMessage", subscriptionId: armed!.subscriptionId, variables: { reason: "customer" } })
    expect(s.events.map((e) => e.type)).toEqual(expect.arrayContaining(["JobCanceled", "BoundaryTriggered"]))
    expect(s.waiting("job").map((j) => j.node)).toEqual(["side"])
    expect(s.state.variables).toMatchObject({ reason: "customer" })
    expect(s.state.boundaries).toEqual({})
  })

  it("non-interrupting timer: a second path starts and the task keeps running; completing it disarms the rest", () => {
    const s = scenario(withBoundary({ timeDuration: "PT1H", cancelActivity: false, }))
    s.start()
    const [armed] = opened(s)
    s.run({ type: "FireTimer", subscriptionId: armed!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node).sort()).toEqual(["side", "work"].map((t) => (t === "work" ? "host" : t)).sort())
    const host = s.waiting("job").find((j) => j.node === "host")!
    s.run({ type: "CompleteJob", jobId: host.id, variables: {} })
    expect(s.state.status).toBe("ACTIVE")
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
  })

  it("interrupting timer on a subprocess ends everything inside it", () => {
    const s = scenario(withBoundary({ timeDuration: "PT5M" }, "subProcess"))
    s.start()
    expect(s.waiting("job").map((j) => j.node)).toEqual(["inner"])
    s.run({ type: "FireTimer", subscriptionId: opened(s)[0]!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["side"])
    expect(s.state.scopes).toEqual({})
    expect(s.events.map((e) => e.type)).toContain("JobCanceled")
  })

  it("a host that completes normally disarms its boundary events", () => {
    const s = scenario(withBoundary({ signalName: "stop" }))
    s.start()
    const [armed] = opened(s)
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.state.status).toBe("COMPLETED")
    expect(s.run({ type: "TriggerSignal", subscriptionId: armed!.subscriptionId, variables: {} })).toMatchObject({ ok: false })
  })
})

describe("error events", () => {
  const graph = (catcher: Record<string, unknown> | null, inner: "job" | "errorEnd" = "job") => graphOf({
    id: "p",
    nodes: [
      { id: "s", type: "startEvent" },
      {
        id: "sub", type: "subProcess",
        properties: {
          nodes: [
            { id: "is", type: "startEvent" },
            { id: "pay", type: "serviceTask", properties: { taskType: "pay" } },
            ...(inner === "errorEnd" ? [{ id: "fail", type: "endEvent", properties: { errorCode: "DECLINED" } }] : [{ id: "ie", type: "endEvent" }])
          ],
          flows: [{ id: "i1", source: "is", target: "pay" }, { id: "i2", source: "pay", target: inner === "errorEnd" ? "fail" : "ie" }]
        }
      },
      ...(catcher === null ? [] : [{ id: "caught", type: "boundaryEvent", properties: { attachedTo: "sub", error: true, ...catcher } }]),
      { id: "handle", type: "serviceTask", properties: { taskType: "handle" } },
      { id: "e1", type: "endEvent" },
      { id: "e2", type: "endEvent" }
    ],
    flows: [
      { id: "f1", source: "s", target: "sub" }, { id: "f2", source: "sub", target: "e1" },
      ...(catcher === null ? [] : [{ id: "f3", source: "caught", target: "handle" }]),
      { id: "f4", source: "handle", target: "e2" }
    ]
  })

  it("a job's error is caught by the matching boundary on the enclosing subprocess", () => {
    const s = scenario(graph({ errorCode: "DECLINED" }))
    s.start()
    s.run({ type: "ThrowError", jobId: s.waiting("job")[0]!.id, errorCode: "DECLINED", errorMessage: "card declined", variables: { why: "limit" } })
    expect(s.events.map((e) => e.type)).toEqual(expect.arrayContaining(["JobErrorThrown", "ErrorCaught", "ScopeClosed"]))
    expect(s.waiting("job").map((j) => j.node)).toEqual(["handle"])
    expect(s.state.variables).toMatchObject({ why: "limit" })
  })

  it("a boundary without a code catches every error; an uncaught error is an incident", () => {
    const all = scenario(graph({}))
    all.start()
    all.run({ type: "ThrowError", jobId: all.waiting("job")[0]!.id, errorCode: "ANYTHING", errorMessage: "", variables: {} })
    expect(all.waiting("job").map((j) => j.node)).toEqual(["handle"])
    const other = scenario(graph({ errorCode: "DECLINED" }))
    other.start()
    other.run({ type: "ThrowError", jobId: other.waiting("job")[0]!.id, errorCode: "TIMEOUT", errorMessage: "gateway", variables: {} })
    expect(Object.values(other.state.incidents)[0]).toMatchObject({ nodeId: "pay", type: "UNHANDLED_ERROR_EVENT" })
  })

  it("an error end event inside a subprocess throws to the subprocess's boundary", () => {
    const s = scenario(graph({ errorCode: "DECLINED" }, "errorEnd"))
    s.start()
    s.run({ type: "CompleteJob", jobId: s.waiting("job")[0]!.id, variables: {} })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["handle"])
    expect(s.state.scopes).toEqual({})
  })
})

describe("event-based gateway", () => {
  const graph = graphOf({
    id: "p",
    nodes: [
      { id: "s", type: "startEvent" },
      { id: "gw", type: "eventBasedGateway" },
      { id: "paid", type: "intermediateCatchEvent", properties: { messageName: "paid", correlationKey: "= orderId" } },
      { id: "late", type: "intermediateCatchEvent", properties: { timeDuration: "PT1H" } },
      { id: "ship", type: "serviceTask", properties: { taskType: "ship" } },
      { id: "cancel", type: "serviceTask", properties: { taskType: "cancel" } },
      { id: "e1", type: "endEvent" },
      { id: "e2", type: "endEvent" }
    ],
    flows: [
      { id: "f0", source: "s", target: "gw" }, { id: "f1", source: "gw", target: "paid" }, { id: "f2", source: "gw", target: "late" },
      { id: "f3", source: "paid", target: "ship" }, { id: "f4", source: "late", target: "cancel" },
      { id: "f5", source: "ship", target: "e1" }, { id: "f6", source: "cancel", target: "e2" }
    ]
  })
  const armed = (s: ReturnType<typeof scenario>) =>
    s.events.filter((e): e is Extract<InstanceEvent, { type: "BoundaryOpened" }> => e.type === "BoundaryOpened")

  it("the first event wins and the others are withdrawn", () => {
    const s = scenario(graph)
    s.start({ orderId: "X" })
    const [message, timer] = armed(s)
    expect(message).toMatchObject({ kind: "message", name: "paid", correlationKey: "X", viaGateway: true })
    expect(timer).toMatchObject({ kind: "timer" })
    s.run({ type: "CorrelateMessage", subscriptionId: message!.subscriptionId, variables: { amount: 5 } })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["ship"])
    expect(s.state.boundaries).toEqual({})
    expect(s.run({ type: "FireTimer", subscriptionId: timer!.subscriptionId })).toMatchObject({ ok: false, reason: "NOT_FOUND" })
    expect(s.state.variables).toMatchObject({ amount: 5 })
  })

  it("the timer path when the message does not come", () => {
    const s = scenario(graph)
    s.start({ orderId: "Y" })
    s.run({ type: "FireTimer", subscriptionId: armed(s)[1]!.subscriptionId })
    expect(s.waiting("job").map((j) => j.node)).toEqual(["cancel"])
  })

  it("refuses a gateway whose flows do not lead to catch events", () => {
    const read = readJsonGraph({
      id: "bad",
      nodes: [{ id: "s", type: "startEvent" }, { id: "gw", type: "eventBasedGateway" }, { id: "a", type: "endEvent" }, { id: "b", type: "endEvent" }],
      flows: [{ id: "f0", source: "s", target: "gw" }, { id: "f1", source: "gw", target: "a" }, { id: "f2", source: "gw", target: "b" }]
    })
    if (!read.ok) throw new Error("unreadable")
    expect(JSON.stringify(compileDraft(read.draft))).toMatch(/must lead to a message, signal or timer catch event/)
  })
})

describe("FEEL in processes", () => {
  it("computes with exact decimals, like decisions: 0.1 + 0.2 = 0.3 takes the gateway's first flow", () => {
    const graph = graphOf({
      id: "decimals",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "calc", type: "scriptTask", properties: { expression: "= price * quantity", resultVariable: "total" } },
        { id: "gw", type: "exclusiveGateway" },
        { id: "exact", type: "endEvent" },
        { id: "binary", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "calc" }, { id: "f2", source: "calc", target: "gw" },
        { id: "f3", source: "gw", target: "exact", condition: "= a + b = 0.3" }, { id: "f4", source: "gw", target: "binary", default: true }
      ]
    })
    const run = scenario(graph)
    const started = run.start({ a: 0.1, b: 0.2, price: 0.1, quantity: 3 })
    expect(started.ok).toBe(true)
    expect(run.events.some((e) => e.type === "ElementCompleted" && e.nodeId === "exact")).toBe(true)
    expect(run.state.variables["total"]).toBe(0.3)
  })
})


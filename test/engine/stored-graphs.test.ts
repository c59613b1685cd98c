// Feature: graphs stored by earlier versions still run, and earlier versions can run graphs compiled now (issue 10).
// Before GraphNode became a union by node type, every node carried every field of every type (null or empty where
// unused), and the engine read them on every node; now it reads a node by its type. Compiled graphs keep those
// fields for earlier versions (a rollback, a rolling upgrade). Given a graph compiled now and the same graph with only
// the fields of each node's type, when the same commands drive instances of both, then both produce the same events.
import { describe, expect, it } from "vitest"
import type { ProcessGraph } from "../../src/bpmn/ProcessGraph.ts"
import type { InstanceCommand } from "../../src/engine/InstanceCommands.ts"
import type { InstanceState } from "../../src/engine/InstanceState.ts"
import { scenario, serviceTask } from "../support/EngineScenario.ts"
import { graphOf } from "../support/Graphs.ts"

/** What every node carried, whatever its type, in graphs stored before the union. */
const EVERY_FIELD = [
  "startNodeIds",
  "terminate",
  "job",
  "userTask",
  "script",
  "message",
  "signal",
  "timer",
  "boundary",
  "errorCatch",
  "errorThrow",
  "boundaryIds",
  "call",
  "multiInstance",
  "decision"
]

const ACTIVITY = ["boundaryIds", "multiInstance"]
const CATCH = ["message", "signal", "timer"]

/** Which of those fields each node type has of its own. */
const OWN: Readonly<Record<string, ReadonlyArray<string>>> = {
  startEvent: [...CATCH, "errorCatch"],
  intermediateCatchEvent: CATCH,
  boundaryEvent: [...CATCH, "errorCatch", "boundary"],
  endEvent: ["terminate", "errorThrow", "job", "message"],
  intermediateThrowEvent: ["job", "message"],
  serviceTask: [...ACTIVITY, "job"],
  sendTask: [...ACTIVITY, "job"],
  userTask: [...ACTIVITY, "userTask"],
  scriptTask: [...ACTIVITY, "script"],
  receiveTask: [...ACTIVITY, "message"],
  businessRuleTask: [...ACTIVITY, "decision"],
  callActivity: [...ACTIVITY, "call"],
  subProcess: [...ACTIVITY, "startNodeIds"],
  adHocSubProcess: [...ACTIVITY, "job"],
  task: ACTIVITY,
  manualTask: ACTIVITY
}

/** The graph with only the fields of each node's type (as a version that stores no more would write it). */
const withOwnFieldsOnly = (graph: ProcessGraph): ProcessGraph =>
  JSON.parse(JSON.stringify({
    ...graph,
    nodes: Object.fromEntries(
      Object.entries(graph.nodes).map(([id, node]) => [
        id,
        Object.fromEntries(
          Object.entries(node).filter(([key]) => !EVERY_FIELD.includes(key) || (OWN[node.type] ?? []).includes(key))
        )
      ])
    )
  }))

/** The next command: an armed catch event in the first steps, else the first waiting token's work, by node id. */
const nextCommand = (state: InstanceState, step: number): InstanceCommand | undefined => {
  const armed = Object.values(state.boundaries ?? {}).sort((a, b) => a.nodeId.localeCompare(b.nodeId))[0]
  if (armed !== undefined && step < 4 && armed.kind !== "conditional") {
    const subscriptionId = armed.subscriptionId
    if (armed.kind === "timer") return { type: "FireTimer", subscriptionId }
    if (armed.kind === "signal") return { type: "TriggerSignal", subscriptionId, variables: {} }
    return { type: "CorrelateMessage", subscriptionId, variables: { via: armed.nodeId } }
  }
  const waiting = Object.values(state.tokens).filter((t) => t.wait !== null)
    .sort((a, b) => a.nodeId.localeCompare(b.nodeId) || a.id.localeCompare(b.id))
  for (const { wait } of waiting) {
    switch (wait?.kind) {
      case "job":
        return { type: "CompleteJob", jobId: wait.jobId, variables: { done: step } }
      case "userTask":
        return { type: "CompleteUserTask", taskId: wait.taskId, variables: { approved: step % 3 !== 0 } }
      case "message":
        return { type: "CorrelateMessage", subscriptionId: wait.subscriptionId, variables: {} }
      case "timer":
        return { type: "FireTimer", subscriptionId: wait.subscriptionId }
      case "signal":
        return { type: "TriggerSignal", subscriptionId: wait.subscriptionId, variables: {} }
      case "child":
        return { type: "ChildInstanceCompleted", childInstanceId: wait.childInstanceId, variables: { child: 1 } }
      case "decision":
        return { type: "DecisionEvaluated", evaluationId: wait.evaluationId, result: "A", outputs: {} }
    }
  }
  return undefined
}

const eventsOf = (graph: ProcessGraph, variables: Record<string, unknown>, throwAt?: string) => {
  const s = scenario(graph)
  s.start(variables)
  for (let step = 0; step < 40 && s.state.status === "ACTIVE"; step++) {
    // The job at `throwAt` fails with an error once the catch events have fired.
    const job = step < 2 ?
      undefined :
      Object.values(s.state.tokens).find((t) => t.nodeId === throwAt && t.wait?.kind === "job")
    const command = job?.wait?.kind === "job"
      ? { type: "ThrowError" as const, jobId: job.wait.jobId, errorCode: "E1", errorMessage: "", variables: {} }
      : nextCommand(s.state, step)
    if (command === undefined) break
    s.run(command)
  }
  return { events: s.events, status: s.state.status }
}

const sameOnBoth = (json: unknown, variables: Record<string, unknown> = {}, throwAt?: string) => {
  const graph = graphOf(json)
  for (const node of Object.values(graph.nodes)) expect(Object.keys(node)).toEqual(expect.arrayContaining(EVERY_FIELD))
  const now = eventsOf(graph, variables, throwAt)
  expect(now.events.length).toBeGreaterThan(3)
  expect(eventsOf(withOwnFieldsOnly(graph), variables, throwAt)).toEqual(now)
  return new Set(now.events.map((e) => e.type))
}

describe("graphs with every field of earlier versions, and with only their own", () => {
  it("tasks, gateways, multi-instance, a call activity and a decision run as on a graph compiled now", () => {
    const happened = sameOnBoth({
      id: "stored",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "script", type: "scriptTask", properties: { expression: "= count + 1", resultVariable: "count" } },
        { id: "fork", type: "inclusiveGateway" },
        serviceTask("each", "work", { multiInstance: { inputCollection: "= items", inputElement: "item" } }),
        { id: "review", type: "userTask", properties: { assignee: "= owner" } },
        { id: "join", type: "inclusiveGateway" },
        { id: "decide", type: "businessRuleTask", properties: { decisionId: "d", resultVariable: "grade" } },
        { id: "call", type: "callActivity", properties: { processId: "child" } },
        { id: "choose", type: "exclusiveGateway" },
        { id: "wait", type: "receiveTask", properties: { messageName: "go", correlationKey: "= owner" } },
        { id: "end", type: "endEvent" },
        { id: "stop", type: "endEvent", properties: { terminate: true } }
      ],
      flows: [
        { id: "f1", source: "s", target: "script" },
        { id: "f2", source: "script", target: "fork" },
        { id: "f3", source: "fork", target: "each", condition: "= count > 0" },
        { id: "f4", source: "fork", target: "review", condition: "= count > 1" },
        { id: "f5", source: "each", target: "join" },
        { id: "f6", source: "review", target: "join" },
        { id: "f7", source: "join", target: "decide" },
        { id: "f8", source: "decide", target: "call" },
        { id: "f9", source: "call", target: "choose" },
        { id: "f10", source: "choose", target: "wait", condition: "= grade = \"A\"" },
        { id: "f11", source: "choose", target: "stop", default: true },
        { id: "f12", source: "wait", target: "end" }
      ]
    }, { count: 1, items: [1, 2, 3], owner: "ann" })
    for (const type of ["IterationCompleted", "UserTaskCompleted", "DecisionEvaluated", "ChildInstanceCompleted"]) {
      expect(happened).toContain(type)
    }
  })

  it("boundary events, an event subprocess and a caught error run as on a graph compiled now", () => {
    const sub = {
      id: "sub",
      type: "subProcess",
      properties: {
        nodes: [
          { id: "is", type: "startEvent" },
          serviceTask("inner", "inner"),
          { id: "ie", type: "endEvent" },
          {
            id: "onTick",
            type: "subProcess",
            properties: {
              triggeredByEvent: true,
              nodes: [
                { id: "tick", type: "startEvent", properties: { timeDuration: "PT1M", interrupting: false } },
                { id: "ticked", type: "endEvent" }
              ],
              flows: [{ id: "t1", source: "tick", target: "ticked" }]
            }
          }
        ],
        flows: [{ id: "i1", source: "is", target: "inner" }, { id: "i2", source: "inner", target: "ie" }]
      }
    }
    sameOnBoth(
      {
        id: "stored-events",
        nodes: [
          { id: "s", type: "startEvent" },
          sub,
          {
            id: "late",
            type: "boundaryEvent",
            properties: { attachedTo: "sub", timeDuration: "PT1H", cancelActivity: false }
          },
          { id: "failed", type: "boundaryEvent", properties: { attachedTo: "sub", error: true, errorCode: "E1" } },
          serviceTask("after", "after"),
          { id: "nudge", type: "serviceTask", properties: { taskType: "nudge" } },
          { id: "repair", type: "serviceTask", properties: { taskType: "repair" } },
          { id: "end", type: "endEvent" },
          { id: "nudged", type: "endEvent" },
          { id: "repaired", type: "endEvent" }
        ],
        flows: [
          { id: "f1", source: "s", target: "sub" },
          { id: "f2", source: "sub", target: "after" },
          { id: "f3", source: "after", target: "end" },
          { id: "f4", source: "late", target: "nudge" },
          { id: "f5", source: "nudge", target: "nudged" },
          { id: "f6", source: "failed", target: "repair" },
          { id: "f7", source: "repair", target: "repaired" }
        ]
      },
      {},
      "inner"
    )
  })
})

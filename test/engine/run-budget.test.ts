// Unit tests of the pure core: a command's run budget (engine/RunBudget.ts). A process that loops without a wait
// state, or a parallel multi-instance over a collection too large for one command, is refused — nothing applied —
// instead of running (and allocating) without end.
import { describe, expect, it } from "vitest"
import { execute } from "../../src/engine/Execute.ts"
import { initialState } from "../../src/engine/InstanceState.ts"
import { MAX_EVENTS_PER_COMMAND } from "../../src/engine/RunBudget.ts"
import { graphOf } from "../support/Graphs.ts"

const gatewayLoop = graphOf({
  id: "loop",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "g1", type: "exclusiveGateway" },
    { id: "g2", type: "exclusiveGateway" }
  ],
  flows: [
    { id: "f0", source: "start", target: "g1" },
    { id: "f1", source: "g1", target: "g2" },
    { id: "f2", source: "g2", target: "g1" }
  ]
})

const waitThenLoop = graphOf({
  id: "wait-then-loop",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "task", type: "serviceTask", properties: { taskType: "work" } },
    { id: "g1", type: "exclusiveGateway" },
    { id: "g2", type: "parallelGateway" }
  ],
  flows: [
    { id: "f0", source: "start", target: "task" },
    { id: "f1", source: "task", target: "g1" },
    { id: "f2", source: "g1", target: "g2" },
    { id: "f3", source: "g2", target: "g1" }
  ]
})

const parallelEach = graphOf({
  id: "each",
  nodes: [
    { id: "start", type: "startEvent" },
    {
      id: "each",
      type: "serviceTask",
      properties: {
        taskType: "each",
        multiInstance: { sequential: false, inputCollection: "= items", inputElement: "item" }
      }
    },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "each" }, { id: "f2", source: "each", target: "end" }]
})

describe("a command's run budget", () => {
  it("refuses a start that loops through gateways without a wait state, naming where it was", () => {
    const result = execute(gatewayLoop, "i-1", undefined, { type: "StartInstance", variables: {} })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reason).toBe("UNPROCESSABLE")
    expect(result.field).toBe("process")
    expect(result.message).toMatch(/without the instance reaching a wait state \(the last at element g[12]\)/)
  })

  it("refuses a job's completion that runs into such a loop; the instance is left as it was", () => {
    const started = execute(waitThenLoop, "i-2", undefined, { type: "StartInstance", variables: {} })
    if (!started.ok) throw new Error(started.message)
    const job = started.events.find((e) => e.type === "JobCreated")
    if (job === undefined || job.type !== "JobCreated") throw new Error("no job")
    const completed = execute(waitThenLoop, "i-2", started.state, {
      type: "CompleteJob",
      jobId: job.jobId,
      variables: {}
    })
    expect(completed.ok).toBe(false)
    if (completed.ok) return
    expect(completed.reason).toBe("UNPROCESSABLE")
    // The job is still open: nothing of the refused command was applied.
    expect(Object.values(started.state.tokens).some((token) => token.nodeId === "task")).toBe(true)
  })

  it("refuses a parallel multi-instance over a collection too large for one command, and runs one that fits", () => {
    const tooMany = Array.from({ length: MAX_EVENTS_PER_COMMAND }, (_, i) => i)
    const refused = execute(parallelEach, "i-3", undefined, { type: "StartInstance", variables: { items: tooMany } })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.reason).toBe("UNPROCESSABLE")
    const fits = execute(parallelEach, "i-4", undefined, {
      type: "StartInstance",
      variables: { items: Array.from({ length: 1_000 }, (_, i) => i) }
    })
    expect(fits.ok).toBe(true)
  })

  it("leaves a fresh instance's state untouched by a refused start", () => {
    const state = initialState("i-5")
    const result = execute(gatewayLoop, "i-5", undefined, { type: "StartInstance", variables: {} })
    expect(result.ok).toBe(false)
    expect(state.eventCount).toBe(0)
  })
})

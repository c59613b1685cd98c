// Unit tests of the pure core: a command's run budget (engine/RunBudget.ts). A process that loops without a wait
// state, or a parallel multi-instance over a collection too large for one command, is refused — nothing applied —
// instead of running (and allocating) without end.
import { describe, expect, it } from "vitest"
import { execute } from "../../src/engine/Execute.ts"
import { MAX_EVENTS_PER_COMMAND } from "../../src/engine/RunBudget.ts"
import { graphOf } from "../support/Graphs.ts"
import * as LoopingModels from "../support/LoopingModels.ts"

const gatewayLoop = graphOf(LoopingModels.gatewayLoop)
const waitThenLoop = graphOf(LoopingModels.workThenLoop)
const parallelEach = graphOf(LoopingModels.eachItem)

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
    expect(Object.values(started.state.tokens).some((token) => token.nodeId === "work")).toBe(true)
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

  it("changes nothing of the state a command starts from, whether it is applied or refused", () => {
    const started = execute(waitThenLoop, "i-5", undefined, { type: "StartInstance", variables: {} })
    if (!started.ok) throw new Error(started.message)
    const before = JSON.stringify(started.state)
    const job = started.events.find((e) => e.type === "JobCreated")
    if (job === undefined || job.type !== "JobCreated") throw new Error("no job")
    // Refused after thousands of changes to the run's copies of the tokens and scopes.
    expect(execute(waitThenLoop, "i-5", started.state, { type: "CompleteJob", jobId: job.jobId, variables: {} }).ok)
      .toBe(false)
    // Applied: the instance's copy changes, the state it started from does not.
    const moved = execute(waitThenLoop, "i-5", started.state, { type: "CancelInstance" })
    expect(moved.ok).toBe(true)
    expect(JSON.stringify(started.state)).toBe(before)
  })
})

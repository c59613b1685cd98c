// Unit tests of the pure core: timers.
import { describe, expect, it } from "vitest"
import { execute } from "../../../../src/engine/Execute.ts"
import type { InstanceEvent } from "../../../../src/engine/InstanceState.ts"
import { graphOf } from "../../../support/Graphs.ts"

describe("timers", () => {
  it("schedules from the command's time (an input: the core reads no clock) and moves on when fired", () => {
    const graph = graphOf({
      id: "p",
      nodes: [{ id: "s", type: "startEvent" }, {
        id: "t",
        type: "intermediateCatchEvent",
        properties: { timeDuration: "P1DT2H" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
    })
    const now = Date.parse("2026-01-31T10:00:00Z")
    const started = execute(graph, "00000000-0000-7000-8000-0000000000aa", undefined, {
      type: "StartInstance",
      variables: {}
    }, now)
    if (!started.ok) throw new Error(started.message)
    const scheduled = started.events.find((e): e is Extract<InstanceEvent, { type: "TimerScheduled" }> =>
      e.type === "TimerScheduled"
    )!
    expect(scheduled.dueAt).toBe("2026-02-01T12:00:00.000Z")
    const fired = execute(graph, "00000000-0000-7000-8000-0000000000aa", started.state, {
      type: "FireTimer",
      subscriptionId: scheduled.subscriptionId
    }, now + 1)
    expect(fired.ok && fired.state.status).toBe("COMPLETED")
  })
})

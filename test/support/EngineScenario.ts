// The engine scenario for unit tests of the pure core: runs commands in order, keeping every event, and checks that
// replaying the events gives the same state as the live run after each command (replay == live).
import { expect } from "vitest"
import type { ProcessGraph } from "../../src/bpmn/ProcessGraph.ts"
import { execute } from "../../src/engine/Execute.ts"
import type { InstanceCommand } from "../../src/engine/InstanceCommands.ts"
import { type InstanceEvent, type InstanceState, replay } from "../../src/engine/InstanceState.ts"
import { jobVariablesNow } from "../../src/engine/JobVariables.ts"

/** Runs commands in order, keeping every event, and checks replay == live after each one. */
export const scenario = (graph: ProcessGraph, instanceId = "00000000-0000-7000-8000-000000000001") => {
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
    /** What the job's worker gets if it activates the job now (undefined: the instance no longer waits on it). */
    jobVariables: (jobId: string) => {
      const created = events.find((e) => e.type === "JobCreated" && e.jobId === jobId) as
        | { readonly variables: Readonly<Record<string, unknown>> }
        | undefined
      return jobVariablesNow(graph, state!, jobId, created?.variables ?? {})
    },
    waiting: (kind: "job" | "userTask") =>
      Object.values(state!.tokens).flatMap((
        t
      ) => (t.wait?.kind === kind
        ? [{
          node: t.nodeId,
          id: kind === "job" ? (t.wait as { jobId: string }).jobId : (t.wait as { taskId: string }).taskId
        }]
        : [])
      )
  }
}

export const serviceTask = (id: string, taskType: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: "serviceTask",
  properties: { taskType, ...extra }
})

/** A command's result was applied (the message names the rejection otherwise). */
export const expectOk = (result: { readonly ok: boolean }) => expect(result.ok, JSON.stringify(result)).toBe(true)

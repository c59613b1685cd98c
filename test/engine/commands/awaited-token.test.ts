// A command names the token it is for by what the token waits for (engine/commands/AwaitedToken.ts): found by kind and
// id, and refused as NOT_FOUND, naming what was asked for, when no token waits for it (another kind with the same id
// included).
import { describe, expect, it } from "vitest"
import { type AwaitedKind, tokenWaitingFor } from "../../../src/engine/commands/AwaitedToken.ts"
import { initialState, type InstanceState, type Token, type Wait } from "../../../src/engine/InstanceState.ts"
import { Rejected } from "../../../src/engine/Rejected.ts"

const token = (id: string, wait: Wait | null): Token => ({ id, nodeId: id, scopeId: "i", viaFlow: null, wait })

const state: InstanceState = {
  ...initialState("i"),
  tokens: {
    job: token("job", { kind: "job", jobId: "x" }),
    userTask: token("userTask", { kind: "userTask", taskId: "x" }),
    message: token("message", { kind: "message", subscriptionId: "x" }),
    signal: token("signal", { kind: "signal", subscriptionId: "x" }),
    timer: token("timer", { kind: "timer", subscriptionId: "x" }),
    child: token("child", { kind: "child", childInstanceId: "x" }),
    decision: token("decision", { kind: "decision", evaluationId: "x" }),
    joined: token("joined", { kind: "join" }),
    moving: token("moving", null)
  }
}

const refusal = (kind: AwaitedKind, id: string) => {
  try {
    tokenWaitingFor(state, kind, id)
    return undefined
  } catch (error) {
    return error instanceof Rejected ? `${error.reason}: ${error.message}` : error
  }
}

describe("the token a command is for", () => {
  it("is the one waiting for that kind with that id", () => {
    const kinds: ReadonlyArray<AwaitedKind> = ["job", "userTask", "message", "signal", "timer", "child", "decision"]
    expect(kinds.map((kind) => tokenWaitingFor(state, kind, "x").id)).toEqual(kinds)
  })

  it("is refused as NOT_FOUND, naming what was asked for, when none waits for it", () => {
    expect(refusal("job", "y")).toBe("NOT_FOUND: job y is not open in this instance")
    expect(refusal("userTask", "y")).toBe("NOT_FOUND: task y is not open in this instance")
    expect(refusal("message", "y")).toBe("NOT_FOUND: message subscription y is not open in this instance")
    expect(refusal("signal", "y")).toBe("NOT_FOUND: signal subscription y is not open in this instance")
    expect(refusal("timer", "y")).toBe("NOT_FOUND: timer y is not open in this instance")
    expect(refusal("child", "y")).toBe("NOT_FOUND: child instance y is not open in this instance")
    expect(refusal("decision", "y")).toBe("NOT_FOUND: decision evaluation y is not open in this instance")
  })
})

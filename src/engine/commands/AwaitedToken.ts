// The token a command names by what it waits for — a job, a user task, a message, signal or timer subscription, a
// child instance, a decision evaluation: the command is refused as NOT_FOUND when no token of the instance waits for it.
import type { InstanceState, Token, Wait } from "../InstanceState.ts"
import { Rejected } from "../Rejected.ts"

interface Awaited {
  /** How the refusal names it. */
  readonly name: string
  readonly waits: (wait: Wait, id: string) => boolean
}

const AWAITED = {
  job: { name: "job", waits: (wait, id) => wait.kind === "job" && wait.jobId === id },
  userTask: { name: "task", waits: (wait, id) => wait.kind === "userTask" && wait.taskId === id },
  message: {
    name: "message subscription",
    waits: (wait, id) => wait.kind === "message" && wait.subscriptionId === id
  },
  signal: { name: "signal subscription", waits: (wait, id) => wait.kind === "signal" && wait.subscriptionId === id },
  timer: { name: "timer", waits: (wait, id) => wait.kind === "timer" && wait.subscriptionId === id },
  child: { name: "child instance", waits: (wait, id) => wait.kind === "child" && wait.childInstanceId === id },
  decision: { name: "decision evaluation", waits: (wait, id) => wait.kind === "decision" && wait.evaluationId === id }
} satisfies Record<string, Awaited>

export type AwaitedKind = keyof typeof AWAITED

export const tokenWaitingFor = (state: InstanceState, kind: AwaitedKind, id: string): Token => {
  const awaited: Awaited = AWAITED[kind]
  const token = Object.values(state.tokens).find((t) => t.wait !== null && awaited.waits(t.wait, id))
  if (token === undefined) throw new Rejected("NOT_FOUND", `${awaited.name} ${id} is not open in this instance`)
  return token
}

// Work handed outside the core: jobs, user tasks, decisions, called instances — the token waits until it comes back.
import type { Appliers } from "../Applier.ts"
import type { InstanceState } from "../State.ts"
import { waiting, withToken } from "../StateChanges.ts"

/** The token waits for its task again, its user task listeners done (or one denied). */
const backToTask = (state: InstanceState, event: { readonly tokenId: string; readonly taskId: string }) => {
  const next = waiting(state, event.tokenId, { kind: "userTask", taskId: event.taskId })
  const token = next.tokens[event.tokenId]
  return token === undefined ? next : withToken(next, { ...token, listener: undefined })
}

export const workAppliers = {
  JobCreated: (state, event) => {
    const next = waiting(state, event.tokenId, { kind: "job", jobId: event.jobId })
    const token = next.tokens[event.tokenId]
    return token === undefined ? next : withToken(next, { ...token, listener: event.listener })
  },
  UserTaskCreated: (state, event) => {
    const next = waiting(state, event.tokenId, { kind: "userTask", taskId: event.taskId })
    const token = next.tokens[event.tokenId]
    return token === undefined ? next : withToken(next, { ...token, listener: undefined })
  },
  UserTaskCompletionDenied: (state, event) => backToTask(state, event),
  UserTaskAssigned: (state, event) => backToTask(state, event),
  UserTaskAssignmentDenied: (state, event) => backToTask(state, event),
  UserTaskUpdated: (state, event) => backToTask(state, event),
  UserTaskUpdateDenied: (state, event) => backToTask(state, event),
  JobCompleted: (state, event) => waiting(state, event.tokenId, null),
  JobCanceled: (state, event) => waiting(state, event.tokenId, null),
  JobErrorThrown: (state, event) => waiting(state, event.tokenId, null),
  UserTaskCompleted: (state, event) => waiting(state, event.tokenId, null),
  UserTaskCanceled: (state, event) => waiting(state, event.tokenId, null),
  DecisionRequested: (state, event) =>
    waiting(state, event.tokenId, { kind: "decision", evaluationId: event.evaluationId }),
  DecisionEvaluated: (state, event) => waiting(state, event.tokenId, null),
  ChildInstanceRequested: (state, event) =>
    waiting(state, event.tokenId, { kind: "child", childInstanceId: event.childInstanceId }),
  ChildInstanceCompleted: (state, event) => waiting(state, event.tokenId, null),
  ChildInstanceCancelRequested: (state, event) => waiting(state, event.tokenId, null),
  ChildErrorReceived: (state, event) => waiting(state, event.tokenId, null),
  JobFailed: (state) => state,
  JobRetriesUpdated: (state, event) => waiting(state, event.tokenId, { kind: "job", jobId: event.jobId })
} satisfies Partial<Appliers>

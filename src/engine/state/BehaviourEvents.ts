// The history events of shared behaviours: compensation (records, their budget, the handlers a throw event runs) and
// user task and execution listeners. Part of InstanceEvent (Events.ts).
import type { TaskChanges } from "../InstanceCommands.ts"
import type { Compensable } from "./State.ts"
import type { TokenEvent } from "./TokenEvent.ts"

export type BehaviourEvent =
  /** An activity with a compensation handler completed: it can be compensated later. */
  | TokenEvent<"CompensableCompleted", {
    readonly scopeId: string
    readonly variables: Readonly<Record<string, unknown>>
  }>
  /**
   * An embedded subprocess completed: the compensation records of its scope move to the enclosing scope (a throw
   * event there compensates the activities that ran inside it).
   */
  | {
    readonly type: "CompensableScopeCompleted"
    readonly scopeId: string
    readonly parentScopeId: string
    readonly nodeId: string
    /**
     * A subprocess with a compensation event subprocess: one record of it instead (its variables as it completed with
     * them), holding the records of its scope (`inner`).
     */
    readonly subprocessRecord?: { readonly variables: Readonly<Record<string, unknown>> } | undefined
  }
  /**
   * A compensation event subprocess started (its scope opened): the records kept with the subprocess it compensates
   * are restored into its scope, where a compensation throw event compensates them.
   */
  | {
    readonly type: "CompensableRestored"
    readonly scopeId: string
    readonly nodeId: string
    readonly records: ReadonlyArray<Compensable>
  }
  /** The compensation records were at their limit (MAX_COMPENSABLE): the oldest is dropped, no longer compensable. */
  | {
    readonly type: "CompensableDropped"
    readonly nodeId: string
    readonly scopeId: string
    readonly limit: number
  }
  /** A compensation throw event compensates these activities, in this order (the first handler runs now). */
  | TokenEvent<"CompensationStarted", { readonly compensating: ReadonlyArray<Compensable> }>
  /** The next handler of a compensation runs (or, with none left, the throw event goes on). */
  | TokenEvent<"CompensationContinued">
  /** The task's assignee changed (null: unassigned), after its assigning listeners ran (if it has some). */
  | TokenEvent<"UserTaskAssigned", {
    readonly taskId: string
    readonly assignee: string | null
  }>
  /** An assigning listener denied the assignment: the task keeps the assignee it had. */
  | TokenEvent<"UserTaskAssignmentDenied", {
    readonly taskId: string
    readonly reason: string
  }>
  /** A completing listener denied the task's completion: the task stays open, as it was. */
  | TokenEvent<"UserTaskCompletionDenied", {
    readonly taskId: string
    readonly reason: string
  }>
  /** The element's start (or end) execution listeners have all completed: it runs (or leaves) now. */
  | TokenEvent<"ExecutionListenersDone", { readonly phase: "start" | "end" }>
  /** The task's candidates, dates or priority changed, after its updating listeners ran (if it has some). */
  | TokenEvent<"UserTaskUpdated", {
    readonly taskId: string
    readonly changes: TaskChanges
  }>
  /** An updating listener denied the update: the task stays as it was. */
  | TokenEvent<"UserTaskUpdateDenied", {
    readonly taskId: string
    readonly reason: string
  }>

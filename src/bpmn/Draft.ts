// The draft of a process model: what both model formats (BPMN XML, the JSON graph) are read into, before one compiler
// (CompileGraph.ts) checks it and turns it into the executable graph.
import type { CallActivityNode, Mapping, UserTaskDefinition } from "./ProcessGraph.ts"

export interface DraftNode {
  readonly id: string
  /** The BPMN element type in camelCase: startEvent, serviceTask, ... */
  readonly type: string
  readonly name: string | null
  /** The embedded subprocess containing the node (null at process level). */
  readonly scope?: string | null | undefined
  /** An event subprocess (triggeredByEvent): started by its start event while its enclosing scope runs. */
  readonly triggeredByEvent?: boolean | undefined
  /** A start event of an event subprocess: whether it interrupts the enclosing scope (isInterrupting, default true). */
  readonly interrupting?: boolean | undefined
  readonly terminate?: boolean | undefined
  /** Event definitions on events (message, timer, ...), which this core does not execute yet. */
  readonly eventDefinitions?: ReadonlyArray<string> | undefined
  readonly jobType?: string | null | undefined
  readonly retries?: number | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** What a user task's zeebe extensions say (assignment, form, priority, schedule); used on user tasks only. */
  readonly userTask?: UserTaskDefinition | undefined
  readonly script?: { readonly expression: string; readonly resultVariable: string } | null | undefined
  readonly message?: { readonly name: string | null; readonly correlationKey: string | null } | null | undefined
  readonly signal?: { readonly name: string | null } | null | undefined
  readonly timer?:
    | { readonly kind: "duration" | "date" | "cycle"; readonly expression: string | null }
    | null
    | undefined
  readonly boundary?: { readonly attachedTo: string | null; readonly cancelActivity: boolean } | null | undefined
  /** The error code of an error event definition (null: no code, i.e. catch-all on a boundary). */
  readonly errorCode?: string | null | undefined
  /** The escalation code of an escalation event definition (null: none, i.e. catch-all on a catch event). */
  readonly escalationCode?: string | null | undefined
  /** The name of a link event definition. */
  readonly linkName?: string | null | undefined
  /** The FEEL condition of a conditional event. */
  readonly condition?: string | null | undefined
  readonly call?: (Partial<Omit<CallActivityNode["call"], "processId">> & { processId: string | null }) | null
  readonly multiInstance?:
    | {
      readonly sequential: boolean
      readonly inputCollection: string | null
      readonly inputElement: string | null
      readonly outputCollection: string | null
      readonly outputElement: string | null
    }
    | null
    | undefined
  readonly decision?:
    | {
      readonly decisionId: string | null
      readonly resultVariable: string | null
      readonly versionTag?: string | null
      readonly binding?: "deployment"
    }
    | null
    | undefined
  /** A loop other than multi-instance (standard loop), which is not supported. */
  readonly standardLoop?: boolean | undefined
  readonly inputs?: ReadonlyArray<Mapping> | undefined
  readonly outputs?: ReadonlyArray<Mapping> | undefined
  readonly defaultFlow?: string | null | undefined
  readonly adHoc?: DraftAdHoc | undefined
  readonly listeners?: ReadonlyArray<DraftListener> | undefined
  /** zeebe:taskListeners of a user task (eventType creating, assigning, updating, completing, canceling). */
  readonly taskListeners?: ReadonlyArray<DraftListener> | undefined
  /** A compensation handler (isForCompensation): started by compensation, never by a flow. */
  readonly forCompensation?: boolean | undefined
  /** A compensation throw event: the activity to compensate (activityRef; null: every one of its scope). */
  readonly compensateActivity?: string | null | undefined
}

export interface DraftFlow {
  readonly id: string
  readonly source: string
  readonly target: string
  readonly condition: string | null
}

export interface Draft {
  readonly key: string
  readonly name: string | null
  readonly nodes: ReadonlyArray<DraftNode>
  readonly flows: ReadonlyArray<DraftFlow>
  /** Associations (source -> target): a compensation boundary event's to its handler. */
  readonly associations?: ReadonlyArray<{ readonly source: string; readonly target: string }> | undefined
  /** zeebe:executionListeners on the process itself, in document order. */
  readonly listeners?: ReadonlyArray<DraftListener> | undefined
}

/** What the model says about an ad-hoc subprocess, before it is checked. */
export interface DraftAdHoc {
  readonly activeElements: string | null
  readonly completionCondition: string | null
  readonly cancelRemainingInstances: boolean
  readonly outputCollection: string | null
  readonly outputElement: string | null
  /** A zeebe:taskDefinition on the subprocess: the job-worker variant (its worker decides what runs). */
  readonly jobWorker: boolean
}

/** An execution listener as the model states it (ExecutionListeners.ts checks it). */
export interface DraftListener {
  readonly eventType: string | null
  readonly type: string | null
  readonly retries: string | null
}

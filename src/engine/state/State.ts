// An instance's state: its tokens and what each waits for, variables, scopes, incidents and armed events. Only the
// appliers (Apply.ts) change it, each event at a time; InstanceState.ts is the engine's door to it.
import type { InstanceCommand, TaskChanges, TaskCorrections } from "../InstanceCommands.ts"

export type Wait =
  | { readonly kind: "job"; readonly jobId: string }
  | { readonly kind: "userTask"; readonly taskId: string }
  | { readonly kind: "join" }
  | { readonly kind: "message"; readonly subscriptionId: string }
  | { readonly kind: "signal"; readonly subscriptionId: string }
  | { readonly kind: "timer"; readonly subscriptionId: string }
  | { readonly kind: "condition" }
  | { readonly kind: "subprocess"; readonly scopeId: string }
  | { readonly kind: "child"; readonly childInstanceId: string }
  | { readonly kind: "multiInstance"; readonly scopeId: string }
  | { readonly kind: "decision"; readonly evaluationId: string }
  | { readonly kind: "incident"; readonly incidentId: string }
  /** A compensation throw event: the handlers still to run after the one running now (in that order). */
  | { readonly kind: "compensation"; readonly pending: ReadonlyArray<Compensable> }

export interface Token {
  readonly id: string
  readonly nodeId: string
  /** The variable scope the token runs in: the instance id (root) or an embedded subprocess's scope id. */
  readonly scopeId: string
  /** The flow the token arrived by (joins count arrivals per flow). */
  readonly viaFlow: string | null
  readonly wait: Wait | null
  /** For one iteration of a multi-instance activity: its body's scope and the item's index. */
  readonly loop?: { readonly bodyScopeId: string; readonly index: number } | null | undefined
  /** Variables of this activation alone (see ElementActivated): the element sees them, nothing else does. */
  readonly locals?: Readonly<Record<string, unknown>> | undefined
  /** The execution listener whose job the token waits for (kept through the job's failures and retries). */
  readonly listener?: ListenerProgress | undefined
  /** Which of the element's execution listeners have all run: none yet, the start ones, or the end ones too. */
  readonly listenersDone?: "start" | "end" | undefined
}

/** A completed activity that has a compensation handler: what its handler gets if it is compensated. */
export interface Compensable {
  readonly nodeId: string
  readonly scopeId: string
  /** The variables visible to the activity when it completed: its handler runs with them. */
  readonly variables: Readonly<Record<string, unknown>>
  /**
   * The completed embedded subprocesses the activity ran inside, innermost first: when a subprocess completes, the
   * records of its scope move to the enclosing one (absent: the activity is directly in its scope).
   */
  readonly within?: ReadonlyArray<string> | undefined
  /**
   * A completed subprocess with a compensation event subprocess: the records of the activities completed inside it,
   * kept with it (its event subprocess compensates them, not a throw event outside). Its `variables` are its own.
   */
  readonly inner?: ReadonlyArray<Compensable> | undefined
}

/**
 * At most this many completed activities are kept for compensation per instance; beyond it, the oldest is dropped
 * (CompensableDropped in the history) and can no longer be compensated.
 */
export const MAX_COMPENSABLE = 1_000

export interface ListenerProgress {
  /** Execution listeners (start, end) or user task listeners (creating, assigning, updating, completing, canceling). */
  readonly phase: "start" | "end" | "creating" | "assigning" | "updating" | "completing" | "canceling"
  readonly index: number
  /** End listeners: the flows the element leaves by once they have run. */
  readonly flows: ReadonlyArray<string>
  /** Updating listeners: the changes asked for, as corrected so far. */
  readonly changes?: TaskChanges | undefined
  /** Assigning listeners: the assignee asked for, as corrected so far (null: unassigned). */
  readonly assignee?: string | null | undefined
  /** Completing and assigning listeners: the task (completing: and the variables its completion carries). */
  readonly taskId?: string | undefined
  readonly variables?: Readonly<Record<string, unknown>> | undefined
  /** Creating listeners: the corrections made so far (later ones win). */
  readonly corrections?: TaskCorrections | undefined
}

export interface Incident {
  readonly id: string
  /** A job that failed with no retries left: retrying makes it activatable again. */
  readonly jobId?: string | undefined
  readonly tokenId: string
  readonly nodeId: string
  readonly type: string
  readonly message: string
}

/**
 * A catch event armed while something runs: a boundary event while its host activity runs, the events after an
 * event-based gateway while the gateway waits, or an event subprocess's start event while its scope runs.
 */
export interface Boundary {
  readonly subscriptionId: string
  /** The token of the host activity or gateway; for an event subprocess, the scope's token (the instance id at root). */
  readonly hostTokenId: string
  /** The boundary event node (or catch event after a gateway, or event subprocess start event). */
  readonly nodeId: string
  readonly kind: BoundaryKind
  /** Armed by an event-based gateway: the node is the catch event after it. */
  readonly viaGateway?: boolean | undefined
  /** The start event of an event subprocess of this scope (the instance id for the process level). */
  readonly eventScopeId?: string | undefined
  /** A timer cycle: when this occurrence is due, and how many occurrences fired before it. */
  readonly dueAt?: string | undefined
  readonly fired?: number | undefined
}

export type BoundaryKind = "message" | "signal" | "timer" | "conditional"

/** A variable scope below the root: one per running embedded subprocess. */
export interface Scope {
  readonly id: string
  readonly parentId: string
  readonly nodeId: string
  /** The token waiting at the subprocess node. */
  readonly tokenId: string
  readonly variables: Readonly<Record<string, unknown>>
  /** For a multi-instance body: the items (evaluated once), the next one to start and how many are done. */
  readonly loop?: {
    readonly items: ReadonlyArray<unknown>
    readonly sequential: boolean
    readonly nextIndex: number
    readonly completed: number
  } | undefined
  /** An ad-hoc subprocess whose worker declared it done (it waits for its running paths). */
  readonly adHocFulfilled?: boolean | undefined
}

export interface InstanceState {
  readonly instanceId: string
  readonly status: "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELED"
  /** Started by a call activity: what nothing here catches (errors, escalations) goes to the caller. */
  readonly called?: boolean | undefined
  readonly variables: Readonly<Record<string, unknown>>
  /** Bumped by every change of the variables; PUT /variables compares it with expectedVersion. */
  readonly variablesVersion: number
  readonly scopes: Readonly<Record<string, Scope>>
  /** Variables attached to nodes: local to each activation of the node. */
  readonly nodeVariables: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly tokens: Readonly<Record<string, Token>>
  readonly incidents: Readonly<Record<string, Incident>>
  /** Completed activities with a compensation handler, in order of completion (absent in older states: none). */
  readonly compensable?: ReadonlyArray<Compensable> | undefined
  readonly boundaries?: Readonly<Record<string, Boundary>> | undefined
  /** Commands that arrived while the instance was suspended, applied in order on resume. */
  readonly deferred: ReadonlyArray<InstanceCommand>
  /** Events applied so far: ids of new tokens, jobs and tasks derive from it, so they are deterministic. */
  readonly eventCount: number
}

export const initialState = (instanceId: string): InstanceState => ({
  instanceId,
  status: "ACTIVE",
  variables: {},
  variablesVersion: 0,
  scopes: {},
  nodeVariables: {},
  tokens: {},
  incidents: {},
  deferred: [],
  eventCount: 0
})

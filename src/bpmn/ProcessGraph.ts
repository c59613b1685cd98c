// The executable process graph: what BPMN XML and JSON graphs compile to at deploy time. Plain JSON (it is stored
// with the deployment), immutable, and all the execution core ever sees — never XML.
import { noSchedule, type TaskSchedule } from "./TaskSchedule.ts"

import type { TimerDefinition } from "./Timer.ts"

/** A variable mapping (zeebe:ioMapping): `source` is a FEEL expression ("= a.b") or a literal; `target` a name. */
export interface Mapping {
  readonly source: string
  readonly target: string
}

/** The nodes that do work (and may carry boundary events). */
export const ACTIVITY_TYPES = [
  "serviceTask",
  "sendTask",
  "userTask",
  "scriptTask",
  "task",
  "manualTask",
  "receiveTask",
  "businessRuleTask",
  "subProcess",
  "adHocSubProcess",
  "callActivity"
] as const
const EVENT_TYPES = [
  "startEvent",
  "endEvent",
  "intermediateCatchEvent",
  "boundaryEvent",
  "intermediateThrowEvent"
] as const
const GATEWAY_TYPES = ["exclusiveGateway", "parallelGateway", "inclusiveGateway", "eventBasedGateway"] as const

export const EXECUTABLE_TYPES = [...EVENT_TYPES, ...ACTIVITY_TYPES, ...GATEWAY_TYPES] as const
export type NodeType = (typeof EXECUTABLE_TYPES)[number]

export interface JobDefinition {
  readonly type: string
  readonly retries: number
  readonly headers: Readonly<Record<string, string>>
}

export interface UserTaskDefinition {
  readonly assignee: string | null
  readonly candidateGroups: ReadonlyArray<string>
  readonly candidateUsers: ReadonlyArray<string>
  readonly formKey: string | null
  /** bindingType="versionTag" on zeebe:formDefinition: the form version carrying this versionTag (absent: latest). */
  readonly formVersionTag?: string | null
  /** bindingType="deployment" on zeebe:formDefinition: the form deployed together with the process version. */
  readonly formBinding?: "deployment"
  /** Priority, due and follow-up date: literals or FEEL expressions, resolved when the task is created. */
  readonly schedule: TaskSchedule
}

export const emptyUserTask: UserTaskDefinition = {
  assignee: null,
  candidateGroups: [],
  candidateUsers: [],
  formKey: null,
  schedule: noSchedule
}

/** What a receive task or message catch event waits for: the message name and the correlation key expression. */
export interface MessageDefinition {
  readonly name: string
  readonly correlationKey: string
}

/** Multi-instance loop characteristics (zeebe:loopCharacteristics). */
export interface MultiInstanceDefinition {
  readonly sequential: boolean
  /** FEEL expression giving the list, evaluated once when the activity is reached. */
  readonly inputCollection: string
  /** Name of the local variable holding each item. */
  readonly inputElement: string | null
  /** Name of the list of results, in item order, set when all iterations are done. */
  readonly outputCollection: string | null
  /** FEEL expression evaluated in each iteration's scope when it completes. */
  readonly outputElement: string | null
}

/** An execution listener (zeebe:executionListener): a job of its type, run when the element starts or ends. */
export interface ListenerDefinition {
  readonly type: string
  readonly retries: number
}

/** The most elements one activation of an ad-hoc subprocess (or one answer of its worker) may start. */
export const MAX_AD_HOC_ACTIVATIONS = 1_000

/** An ad-hoc subprocess (zeebe:adHoc, Camunda 8.8): which inner elements start, and when it is done. */
export interface AdHocDefinition {
  /** The inner elements that can be activated: those without incoming sequence flows. */
  readonly activatable: ReadonlyArray<string>
  /** FEEL: the ids of the elements to activate when the subprocess is entered (null: none). */
  readonly activeElements: string | null
  /** FEEL, evaluated each time an inner path ends; true completes the subprocess (null: when no path is left). */
  readonly completionCondition: string | null
  /** When the condition holds: terminate the paths still running (default) or wait for them. */
  readonly cancelRemainingInstances: boolean
  /** A local list of the subprocess, given to the parent scope when it completes. */
  readonly outputCollection: string | null
  /** FEEL, evaluated when an inner path ends; its value is appended to the output collection. */
  readonly outputElement: string | null
}

/** What every node has, whatever its type. */
interface NodeBase<T extends NodeType> {
  readonly id: string
  readonly type: T
  readonly name: string | null
  /** The embedded subprocess this node belongs to; null at process level. */
  readonly scope: string | null
  readonly incoming: ReadonlyArray<string>
  readonly outgoing: ReadonlyArray<string>
  /** The default flow: taken by exclusive and inclusive gateways when no condition holds (kept on any element). */
  readonly defaultFlow: string | null
  readonly inputs: ReadonlyArray<Mapping>
  readonly outputs: ReadonlyArray<Mapping>
  /** Execution listeners, in order: start ones before the element runs, end ones after it (before it leaves). */
  readonly listeners?: {
    readonly start: ReadonlyArray<ListenerDefinition>
    readonly end: ReadonlyArray<ListenerDefinition>
  } | undefined
}

/** What an activity (task, subprocess, call activity) has besides. */
export interface ActivityBase<T extends ActivityType> extends NodeBase<T> {
  /** The boundary events attached to this activity. */
  readonly boundaryIds: ReadonlyArray<string>
  readonly multiInstance: MultiInstanceDefinition | null
  /** An activity with a compensation boundary event: the handler that undoes it. */
  readonly compensation?: { readonly handlerId: string } | undefined
  /** A compensation handler: run only by compensation (its own variables: those of the activity it undoes). */
  readonly forCompensation?: boolean | undefined
}

/** What a catch event (start, intermediate catch, boundary) waits for: at most one of these is set. */
interface CatchTriggers {
  readonly message: MessageDefinition | null
  /** A signal catch or start event: the signal's name. */
  readonly signal: { readonly name: string } | null
  /** A timer catch event: when it is due. */
  readonly timer: TimerDefinition | null
  /** A conditional catch, boundary or event-subprocess start event: its FEEL condition. */
  readonly condition?: string | null | undefined
}

/** What a throw event (intermediate throw, end) throws. */
interface ThrowResults {
  /** A message throw event: done by a job worker, as in Zeebe (the message's name is in `message`). */
  readonly job: JobDefinition | null
  readonly message: MessageDefinition | null
  /** An escalation throw event: the code it throws. */
  readonly escalationThrow?: { readonly code: string } | null | undefined
  /** A signal throw event: the signal it broadcasts. */
  readonly signalThrow?: { readonly name: string } | null | undefined
  /** A compensation throw event: the activity it compensates (null: all of its scope). */
  readonly compensationThrow?: { readonly activityId: string | null } | undefined
}

/** A link event: its name; a throw link jumps to the catch link of the same name in its scope (`target`). */
export type LinkDefinition = { readonly name: string; readonly target: string | null }

export interface StartEventNode extends NodeBase<"startEvent">, CatchTriggers {
  /** The start event of an error event subprocess: the error code it catches (null catches every error). */
  readonly errorCatch: { readonly errorCode: string | null } | null
  /** The start event of an escalation event subprocess: the code it catches (null catches every escalation). */
  readonly escalationCatch?: { readonly code: string | null } | null | undefined
  /** The start event of an event subprocess: the subprocess and whether starting it interrupts its scope. */
  readonly eventStart?: { readonly subprocessId: string; readonly interrupting: boolean } | null | undefined
}

export interface IntermediateCatchEventNode extends NodeBase<"intermediateCatchEvent">, CatchTriggers {
  readonly link?: LinkDefinition | null | undefined
}

export interface BoundaryEventNode extends NodeBase<"boundaryEvent">, CatchTriggers {
  /** The activity it is attached to and whether it interrupts it. */
  readonly boundary: { readonly attachedTo: string; readonly interrupting: boolean }
  /** An error boundary event: the error code it catches (null catches every error). */
  readonly errorCatch: { readonly errorCode: string | null } | null
  /** An escalation boundary event: the code it catches (null catches every escalation). */
  readonly escalationCatch?: { readonly code: string | null } | null | undefined
}

export interface IntermediateThrowEventNode extends NodeBase<"intermediateThrowEvent">, ThrowResults {
  readonly link?: LinkDefinition | null | undefined
}

export interface EndEventNode extends NodeBase<"endEvent">, ThrowResults {
  /** A terminate end event ends every other path of its scope. */
  readonly terminate: boolean
  /** An error end event: the error code it throws. */
  readonly errorThrow: { readonly errorCode: string } | null
}

/** A task done by a job worker (service and send tasks). */
export interface JobTaskNode<T extends "serviceTask" | "sendTask"> extends ActivityBase<T> {
  readonly job: JobDefinition
}

export interface UserTaskNode extends ActivityBase<"userTask"> {
  readonly userTask: UserTaskDefinition
  /**
   * User task listeners (zeebe:taskListeners): jobs the task waits for when it is created, assigned (absent in graphs
   * compiled before: none) and completed, and the jobs that follow its cancellation.
   */
  readonly taskListeners?: {
    readonly creating: ReadonlyArray<ListenerDefinition>
    readonly assigning?: ReadonlyArray<ListenerDefinition> | undefined
    readonly updating?: ReadonlyArray<ListenerDefinition> | undefined
    readonly completing: ReadonlyArray<ListenerDefinition>
    /** Absent in graphs compiled before: none. */
    readonly canceling?: ReadonlyArray<ListenerDefinition> | undefined
  } | undefined
}

export interface ScriptTaskNode extends ActivityBase<"scriptTask"> {
  readonly script: { readonly expression: string; readonly resultVariable: string }
}

export interface ReceiveTaskNode extends ActivityBase<"receiveTask"> {
  readonly message: MessageDefinition
}

export interface BusinessRuleTaskNode extends ActivityBase<"businessRuleTask"> {
  /** The decision (latest version by id) and the variable its result goes to. */
  readonly decision: {
    readonly decisionId: string
    readonly resultVariable: string
    /** bindingType="versionTag": the decision version deployed with this tag (absent or null: the latest). */
    readonly versionTag?: string | null
    /** bindingType="deployment": the decision deployed together with the process version. */
    readonly binding?: "deployment"
  }
}

export interface CallActivityNode extends ActivityBase<"callActivity"> {
  /** The called process key, whether all child variables come back, and the version tag to bind to (null: latest). */
  readonly call: {
    readonly processId: string
    readonly propagateAllChildVariables: boolean
    readonly versionTag?: string | null
    /** bindingType="deployment": the version of the called process deployed together with the caller's version. */
    readonly binding?: "deployment"
  }
}

export interface SubProcessNode extends ActivityBase<"subProcess"> {
  /** Its none start event (one). */
  readonly startNodeIds: ReadonlyArray<string>
  /** An event subprocess (triggeredByEvent): started by its start event, never by a sequence flow. */
  readonly triggeredByEvent?: boolean | undefined
  /** The start events of the event subprocesses directly inside it. */
  readonly eventStartIds?: ReadonlyArray<string> | undefined
  /**
   * Its compensation event subprocess (directly inside it): when the completed subprocess is compensated, that runs
   * instead of the handlers of the activities completed inside it (the event subprocess is `forCompensation`).
   */
  readonly compensationSubprocessId?: string | undefined
}

export interface AdHocSubProcessNode extends ActivityBase<"adHocSubProcess"> {
  /** What it activates and when it completes. */
  readonly adHoc: AdHocDefinition
  /** The job-worker variant: the job that asks the worker what to run. */
  readonly job: JobDefinition | null
}

export type GatewayNode<T extends GatewayType> = NodeBase<T>

/**
 * A node of the executable graph: each node type carries exactly what it needs; narrow by `type` (or the guards of
 * GraphNodes.ts). Stored graphs also carry, on every node, the fields every node had before this union (null or empty
 * where unused: earlier versions read them, CompileGraph.ts keeps them); reading by type never looks at them. Fields
 * marked optional are absent in graphs older than their feature.
 */
export type GraphNode =
  | StartEventNode
  | EndEventNode
  | IntermediateCatchEventNode
  | IntermediateThrowEventNode
  | BoundaryEventNode
  | ActivityBase<"task">
  | ActivityBase<"manualTask">
  | JobTaskNode<"serviceTask">
  | JobTaskNode<"sendTask">
  | UserTaskNode
  | ScriptTaskNode
  | ReceiveTaskNode
  | BusinessRuleTaskNode
  | CallActivityNode
  | SubProcessNode
  | AdHocSubProcessNode
  | GatewayNode<"exclusiveGateway">
  | GatewayNode<"parallelGateway">
  | GatewayNode<"inclusiveGateway">
  | GatewayNode<"eventBasedGateway">

/** The node of one type. */
export type NodeOf<T extends NodeType> = Extract<GraphNode, { readonly type: T }>

export type ActivityType = (typeof ACTIVITY_TYPES)[number]
export type ActivityNode = NodeOf<ActivityType>

export type GatewayType = (typeof GATEWAY_TYPES)[number]

/** The events a token can wait at for a trigger: start (of an event subprocess), intermediate catch, boundary. */
export type CatchEventNode = StartEventNode | IntermediateCatchEventNode | BoundaryEventNode
export type ThrowEventNode = IntermediateThrowEventNode | EndEventNode

export interface GraphFlow {
  readonly id: string
  readonly source: string
  readonly target: string
  /** FEEL condition, with or without the leading "=". */
  readonly condition: string | null
}

export interface ProcessGraph {
  readonly key: string
  readonly name: string | null
  /** zeebe:versionTag of the process (call activities can bind to it); absent in graphs deployed before it. */
  readonly versionTag?: string | null
  readonly nodes: Readonly<Record<string, GraphNode>>
  readonly flows: Readonly<Record<string, GraphFlow>>
  /** The process-level none start events. */
  readonly startNodeIds: ReadonlyArray<string>
  /** The process-level message start events: a published message of that name starts an instance there. */
  readonly messageStarts: ReadonlyArray<{ readonly nodeId: string; readonly messageName: string }>
  /** The process-level signal start events: a broadcast signal of that name starts an instance there. */
  readonly signalStarts: ReadonlyArray<{ readonly nodeId: string; readonly signalName: string }>
  /** The process-level timer start events: each starts one instance when due (counted from the deployment). */
  readonly timerStarts?: ReadonlyArray<{ readonly nodeId: string; readonly timer: TimerDefinition }> | undefined
  /** The process-level conditional start events: evaluated against supplied variables on request. */
  readonly conditionalStarts: ReadonlyArray<{ readonly nodeId: string; readonly condition: string }>
  /** The start events of the event subprocesses at process level: armed while the instance runs. */
  readonly eventStartIds?: ReadonlyArray<string> | undefined
  /**
   * Execution listeners on the process itself (zeebe:executionListeners, Camunda 8.6+), in order: start ones before
   * the start event is entered, end ones after the last element ended and before the instance completes.
   */
  readonly listeners?: ProcessListeners | undefined
}

export interface ProcessListeners {
  readonly start: ReadonlyArray<ListenerDefinition>
  readonly end: ReadonlyArray<ListenerDefinition>
}

/** One thing wrong with a model: which element, and what. */
export interface Problem {
  readonly elementId: string
  readonly message: string
}

export type Compiled = { readonly ok: true; readonly graph: ProcessGraph } | {
  readonly ok: false
  readonly problems: ReadonlyArray<Problem>
}

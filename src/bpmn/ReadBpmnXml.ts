// Reads BPMN 2.0 XML as Camunda Modeler (Camunda 8 flavour) writes it — bpmn-moddle with the zeebe extension — into
// a draft for the compiler. Untrusted XML is prechecked first.
import { BpmnModdle } from "bpmn-moddle"
import zeebe from "zeebe-bpmn-moddle/resources/zeebe.json" with { type: "json" }
import { listOf } from "./CompileGraph.ts"
import type { Draft, DraftFlow, DraftNode } from "./Draft.ts"
import { type Element, elements, extension, extensionsOf, isElement, str } from "./ModdleElements.ts"
import type { Mapping, Problem, UserTaskDefinition } from "./ProcessGraph.ts"
import {
  associationsIn,
  calledDecisionOf,
  compensationOf,
  toDraftAdHoc,
  toDraftListeners
} from "./ReadZeebeExtensions.ts"
import { unexecutedExtensions } from "./UnexecutedExtensions.ts"
import { DEFAULT_XML_LIMITS, precheckXml, type XmlLimits } from "./XmlPrecheck.ts"

interface Moddle {
  fromXML(
    xml: string
  ): Promise<
    {
      readonly rootElement: Element
      readonly warnings: ReadonlyArray<
        {
          readonly message: string
          readonly property?: string
          readonly value?: unknown
          readonly element?: { readonly id?: unknown }
        }
      >
    }
  >
  create(type: string, properties?: Record<string, unknown>): Element & { get(name: string): Array<unknown> }
  toXML(element: Element, options?: { readonly format?: boolean }): Promise<{ readonly xml: string }>
}

export const makeModdle = (): Moddle =>
  new (BpmnModdle as unknown as new(packages: Record<string, unknown>) => Moddle)({ zeebe })

/** "bpmn:ServiceTask" -> "serviceTask" */
const localType = (type: string): string => {
  const local = type.split(":")[1] ?? type
  return local.charAt(0).toLowerCase() + local.slice(1)
}

const mappings = (element: Element, property: "inputParameters" | "outputParameters"): ReadonlyArray<Mapping> => {
  const io = extension(element, "zeebe:IoMapping")
  return io === undefined
    ? []
    : elements(io, property).map((p) => ({ source: str(p, "source") ?? "", target: str(p, "target") ?? "" }))
}

const EVENT_DEFINITION_NAMES: Record<string, string> = {
  "bpmn:MessageEventDefinition": "message",
  "bpmn:TimerEventDefinition": "timer",
  "bpmn:SignalEventDefinition": "signal",
  "bpmn:ErrorEventDefinition": "error",
  "bpmn:EscalationEventDefinition": "escalation",
  "bpmn:ConditionalEventDefinition": "conditional",
  "bpmn:CompensateEventDefinition": "compensation",
  "bpmn:LinkEventDefinition": "link"
}

const messageOf = (element: Element): DraftNode["message"] => {
  const definition = elements(element, "eventDefinitions").find((d) => d.$type === "bpmn:MessageEventDefinition")
  const ref = element.$type === "bpmn:ReceiveTask" ? element["messageRef"] : definition?.["messageRef"]
  if (!isElement(ref)) {
    return element.$type === "bpmn:ReceiveTask" || definition !== undefined
      ? { name: null, correlationKey: null }
      : null
  }
  const subscription = extension(ref, "zeebe:Subscription")
  return {
    name: str(ref, "name"),
    correlationKey: subscription === undefined ? null : str(subscription, "correlationKey")
  }
}

const toDraftNode = (element: Element, scope: string | null): DraftNode => {
  const type = localType(element.$type)
  const definitions = elements(element, "eventDefinitions")
  const terminate = definitions.some((d) => d.$type === "bpmn:TerminateEventDefinition")
  const eventDefinitions = definitions
    .filter((d) => d.$type !== "bpmn:TerminateEventDefinition")
    .map((d) => EVENT_DEFINITION_NAMES[d.$type] ?? localType(d.$type))
  const task = extension(element, "zeebe:TaskDefinition")
  const headers = extension(element, "zeebe:TaskHeaders")
  const script = extension(element, "zeebe:Script")
  const defaultFlow = element["default"]
  const retries = task === undefined ? undefined : Number(str(task, "retries") ?? "3")
  return {
    id: str(element, "id") ?? "",
    type,
    name: str(element, "name"),
    scope,
    triggeredByEvent: element["triggeredByEvent"] === true,
    ...(element.$type === "bpmn:StartEvent" ? { interrupting: element["isInterrupting"] !== false } : {}),
    terminate,
    eventDefinitions,
    jobType: task === undefined ? null : str(task, "type"),
    retries: retries === undefined || Number.isNaN(retries) ? 3 : retries,
    headers: headers === undefined
      ? {}
      : Object.fromEntries(elements(headers, "values").map((h) => [str(h, "key") ?? "", str(h, "value") ?? ""])),
    userTask: userTaskOf(element),
    script: script === undefined
      ? null
      : { expression: str(script, "expression") ?? "", resultVariable: str(script, "resultVariable") ?? "" },
    message: messageOf(element),
    ...eventPartsOf(element),
    decision: calledDecisionOf(element),
    standardLoop: isElement(element["loopCharacteristics"]) &&
      element["loopCharacteristics"].$type === "bpmn:StandardLoopCharacteristics",
    multiInstance: multiInstanceOf(element),
    call: callOf(element),
    inputs: mappings(element, "inputParameters"),
    outputs: mappings(element, "outputParameters"),
    defaultFlow: isElement(defaultFlow) ? str(defaultFlow, "id") : null
  }
}

/** zeebe:assignmentDefinition, formDefinition, priorityDefinition and taskSchedule (read on every element). */
const userTaskOf = (element: Element): UserTaskDefinition => {
  const assignment = extension(element, "zeebe:AssignmentDefinition")
  const form = extension(element, "zeebe:FormDefinition")
  const priority = extension(element, "zeebe:PriorityDefinition")
  const schedule = extension(element, "zeebe:TaskSchedule")
  return {
    assignee: assignment === undefined ? null : str(assignment, "assignee"),
    candidateGroups: assignment === undefined ? [] : listOf(str(assignment, "candidateGroups")),
    candidateUsers: assignment === undefined ? [] : listOf(str(assignment, "candidateUsers")),
    formKey: form === undefined ? null : str(form, "formKey") ?? str(form, "formId"),
    ...(form !== undefined && str(form, "bindingType") === "versionTag"
      ? { formVersionTag: str(form, "versionTag") }
      : {}),
    ...(form !== undefined && str(form, "bindingType") === "deployment" ? { formBinding: "deployment" as const } : {}),
    schedule: {
      priority: priority === undefined ? null : str(priority, "priority") ?? null,
      dueDate: schedule === undefined ? null : str(schedule, "dueDate") ?? null,
      followUpDate: schedule === undefined ? null : str(schedule, "followUpDate") ?? null
    }
  }
}

/** What the event definitions say: condition, timer, escalation and error codes, link and signal names, host. */
const eventPartsOf = (
  element: Element
): Pick<DraftNode, "condition" | "timer" | "escalationCode" | "linkName" | "signal" | "boundary" | "errorCode"> => {
  const definition = (type: string) => elements(element, "eventDefinitions").find((d) => d.$type === type)
  const conditional = definition("bpmn:ConditionalEventDefinition")?.["condition"]
  const escalation = definition("bpmn:EscalationEventDefinition")?.["escalationRef"]
  const link = definition("bpmn:LinkEventDefinition")
  const signal = definition("bpmn:SignalEventDefinition")
  const error = definition("bpmn:ErrorEventDefinition")?.["errorRef"]
  return {
    condition: isElement(conditional) ? str(conditional, "body")?.trim() ?? null : null,
    timer: timerOf(definition("bpmn:TimerEventDefinition")),
    escalationCode: isElement(escalation) ? str(escalation, "escalationCode") : null,
    linkName: link === undefined ? null : str(link, "name"),
    signal: signal === undefined
      ? null
      : { name: isElement(signal["signalRef"]) ? str(signal["signalRef"], "name") : null },
    boundary: element.$type === "bpmn:BoundaryEvent"
      ? {
        attachedTo: isElement(element["attachedToRef"]) ? str(element["attachedToRef"], "id") : null,
        cancelActivity: element["cancelActivity"] !== false
      }
      : null,
    errorCode: isElement(error) ? str(error, "errorCode") : null
  }
}

const timerOf = (definition: Element | undefined): DraftNode["timer"] => {
  if (definition === undefined) return null
  const body = (name: string) => {
    const expression = definition[name]
    return isElement(expression) ? str(expression, "body")?.trim() ?? "" : null
  }
  const cycle = body("timeCycle")
  if (cycle !== null) return { kind: "cycle" as const, expression: cycle }
  const duration = body("timeDuration")
  if (duration !== null) return { kind: "duration" as const, expression: duration }
  return { kind: "date" as const, expression: body("timeDate") }
}

const multiInstanceOf = (element: Element): DraftNode["multiInstance"] => {
  const loop = element["loopCharacteristics"]
  if (!isElement(loop) || loop.$type !== "bpmn:MultiInstanceLoopCharacteristics") return null
  const zeebeLoop = extension(loop, "zeebe:LoopCharacteristics")
  const get = (name: string) => (zeebeLoop === undefined ? null : str(zeebeLoop, name))
  return {
    sequential: loop["isSequential"] === true,
    inputCollection: get("inputCollection"),
    inputElement: get("inputElement"),
    outputCollection: get("outputCollection"),
    outputElement: get("outputElement")
  }
}

const callOf = (element: Element): NonNullable<DraftNode["call"]> | null => {
  const called = extension(element, "zeebe:CalledElement")
  if (element.$type !== "bpmn:CallActivity") return null
  const propagate = called?.["propagateAllChildVariables"]
  return {
    processId: called === undefined ? null : str(called, "processId"),
    propagateAllChildVariables: propagate !== false && propagate !== "false",
    versionTag: called !== undefined && called["bindingType"] === "versionTag"
      ? str(called, "versionTag") ?? ""
      : null,
    ...(called !== undefined && called["bindingType"] === "deployment" ? { binding: "deployment" as const } : {})
  }
}

/** References moddle could not resolve, by element id and property (`f` -> `targetRef` -> `missing`). */
type Unresolved = ReadonlyMap<string, ReadonlyMap<string, string>>

const unresolvedOf = (
  warnings: ReadonlyArray<
    { readonly property?: string; readonly value?: unknown; readonly element?: { readonly id?: unknown } }
  >
): Unresolved => {
  const found = new Map<string, Map<string, string>>()
  for (const warning of warnings) {
    const id = warning.element?.id
    if (typeof id !== "string" || typeof warning.value !== "string" || warning.property === undefined) continue
    const byProperty = found.get(id) ?? new Map<string, string>()
    byProperty.set(warning.property.replace(/^bpmn:/, ""), warning.value)
    found.set(id, byProperty)
  }
  return found
}

const toDraftFlow = (element: Element, unresolved: Unresolved): DraftFlow => {
  // A reference to a missing element keeps the missing id, so the compiler's problem names it.
  const ref = (name: string) => {
    const target = element[name]
    return isElement(target) ? str(target, "id") ?? "" : unresolved.get(str(element, "id") ?? "")?.get(name) ?? ""
  }
  const condition = element["conditionExpression"]
  return {
    id: str(element, "id") ?? "",
    source: ref("sourceRef"),
    target: ref("targetRef"),
    condition: isElement(condition) ? str(condition, "body") : null
  }
}

const NOT_FLOW_NODES = new Set(["bpmn:DataObjectReference", "bpmn:DataStoreReference", "bpmn:DataObject"])

export type ReadResult = { readonly ok: true; readonly draft: Draft; readonly versionTag: string | null } | {
  readonly ok: false
  readonly problems: ReadonlyArray<Problem>
}

/** Reads the first executable process of the definitions (or the only process). */
/** An element with all it carries: its own attributes, execution listeners, compensation, ad-hoc settings. */
const toDraftElement = (element: Element, scope: string | null): DraftNode => {
  const node = {
    ...toDraftNode(element, scope),
    listeners: toDraftListeners(element, "zeebe:ExecutionListeners"),
    taskListeners: toDraftListeners(element, "zeebe:TaskListeners"),
    ...compensationOf(element)
  }
  return element.$type === "bpmn:AdHocSubProcess" ? { ...node, adHoc: toDraftAdHoc(element) } : node
}

export const readBpmnXml = async (xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): Promise<ReadResult> => {
  const precheck = precheckXml(xml, limits)
  if (precheck.length > 0) return { ok: false, problems: precheck }
  let root: Element
  let unresolved: Unresolved
  try {
    const read = await makeModdle().fromXML(xml)
    root = read.rootElement
    unresolved = unresolvedOf(read.warnings)
  } catch (error) {
    return {
      ok: false,
      problems: [{
        elementId: "definitions",
        message: `not a BPMN document: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`
      }]
    }
  }
  if (root.$type !== "bpmn:Definitions") {
    return { ok: false, problems: [{ elementId: "definitions", message: "the root element must be bpmn:definitions" }] }
  }
  const processes = elements(root, "rootElements").filter((e) => e.$type === "bpmn:Process")
  const process = processes.find((p) => p["isExecutable"] === true) ??
    (processes.length === 1 ? processes[0] : undefined)
  if (process === undefined) {
    return {
      ok: false,
      problems: [{
        elementId: "definitions",
        message: processes.length === 0
          ? "the document has no process"
          : "none of the processes is executable (isExecutable=\"true\")"
      }]
    }
  }
  // Embedded subprocesses are flattened: their nodes carry the subprocess id as their scope.
  const nodes: Array<DraftNode> = []
  const flows: Array<DraftFlow> = []
  const associations: Array<{ source: string; target: string }> = []
  const refused: Array<Problem> = []
  const check = (element: Element) => {
    for (const message of unexecutedExtensions(extensionsOf(element))) {
      refused.push({ elementId: str(element, "id") ?? "", message })
    }
  }
  check(process)
  const collect = (container: Element, scope: string | null) => {
    associations.push(...associationsIn(container))
    for (const element of elements(container, "flowElements")) {
      check(element)
      if (element.$type === "bpmn:SequenceFlow") flows.push(toDraftFlow(element, unresolved))
      else if (!NOT_FLOW_NODES.has(element.$type)) {
        nodes.push(toDraftElement(element, scope))
        if (element.$type === "bpmn:SubProcess" || element.$type === "bpmn:AdHocSubProcess") {
          collect(element, str(element, "id"))
        }
      }
    }
  }
  collect(process, null)
  if (refused.length > 0) return { ok: false, problems: refused }
  const versionTag = extension(process, "zeebe:VersionTag")
  return {
    ok: true,
    draft: {
      key: str(process, "id") ?? "",
      name: str(process, "name"),
      nodes,
      flows,
      associations,
      listeners: toDraftListeners(process, "zeebe:ExecutionListeners")
    },
    versionTag: versionTag === undefined ? null : str(versionTag, "value")
  }
}

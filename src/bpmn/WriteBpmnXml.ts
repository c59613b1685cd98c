// BPMN XML for a compiled graph (JSON deployments are served as XML too); reading it back compiles to the same graph.
import { isCatchEvent, isThrowEvent, jobOf, multiInstanceOf } from "./GraphNodes.ts"
import type {
  GraphNode,
  MessageDefinition,
  MultiInstanceDefinition,
  ProcessGraph,
  UserTaskDefinition
} from "./ProcessGraph.ts"
import { makeModdle } from "./ReadBpmnXml.ts"
import type { TimerDefinition } from "./Timer.ts"

type Moddle = ReturnType<typeof makeModdle>
type Created = ReturnType<Moddle["create"]>

/** What writing one document shares: the moddle, the elements created by id, and the root elements they refer to. */
interface Writer {
  readonly moddle: Moddle
  readonly graph: ProcessGraph
  readonly created: Map<string, Created>
  readonly messages: Array<Created>
  readonly signals: Array<Created>
  readonly errors: Array<Created>
  readonly escalations: Array<Created>
}

const bpmnType = (type: string) => `bpmn:${type.charAt(0).toUpperCase()}${type.slice(1)}`

export const writeBpmnXml = async (graph: ProcessGraph): Promise<string> => {
  const moddle = makeModdle()
  const process = moddle.create("bpmn:Process", {
    id: graph.key,
    isExecutable: true,
    ...(graph.name === null ? {} : { name: graph.name }),
    ...(graph.versionTag == null ? {} : {
      extensionElements: moddle.create("bpmn:ExtensionElements", {
        values: [moddle.create("zeebe:VersionTag", { value: graph.versionTag })]
      })
    })
  })
  const w: Writer = { moddle, graph, created: new Map(), messages: [], signals: [], errors: [], escalations: [] }
  // Each node and flow goes into its container: the process, or the subprocess it belongs to.
  const containerOf = (scope: string | null) => (scope === null ? process : w.created.get(scope)!).get("flowElements")
  // Subprocesses before their contents: sort by nesting depth.
  const depth = (scope: string | null): number => (scope === null ? 0 : 1 + depth(graph.nodes[scope]?.scope ?? null))
  for (const node of Object.values(graph.nodes).sort((a, b) => depth(a.scope) - depth(b.scope))) {
    const element = elementOf(w, node)
    w.created.set(node.id, element)
    containerOf(node.scope).push(element)
  }
  for (const flow of Object.values(graph.flows)) {
    const element = moddle.create("bpmn:SequenceFlow", {
      id: flow.id,
      sourceRef: w.created.get(flow.source),
      targetRef: w.created.get(flow.target),
      ...(flow.condition === null
        ? {}
        : { conditionExpression: moddle.create("bpmn:FormalExpression", { body: flow.condition }) })
    })
    w.created.set(flow.id, element)
    containerOf(graph.nodes[flow.source]?.scope ?? null).push(element)
  }
  for (const node of Object.values(graph.nodes)) linkReferences(w, node)
  const definitions = moddle.create("bpmn:Definitions", {
    id: `Definitions_${graph.key}`,
    targetNamespace: "http://bpmn.io/schema/bpmn"
  })
  definitions.get("rootElements").push(process, ...w.messages, ...w.signals, ...w.errors, ...w.escalations)
  return (await moddle.toXML(definitions, { format: true })).xml
}

/** A node's element, with its zeebe extensions, loop and event definition. */
const elementOf = (w: Writer, node: GraphNode): Created => {
  const values = extensionValues(w, node)
  const loop = multiInstanceOf(node)
  const definition = eventDefinitionOf(w, node)
  return w.moddle.create(bpmnType(node.type), {
    id: node.id,
    ...(node.name === null ? {} : { name: node.name }),
    ...(values.length === 0 ? {} : { extensionElements: w.moddle.create("bpmn:ExtensionElements", { values }) }),
    ...(loop === null ? {} : { loopCharacteristics: loopOf(w, loop) }),
    ...(definition === undefined ? {} : { eventDefinitions: [definition] }),
    ...(node.type === "receiveTask" ? { messageRef: messageFor(w, node.id, node.message) } : {}),
    ...(node.type === "subProcess" && node.triggeredByEvent === true ? { triggeredByEvent: true } : {}),
    ...(node.type === "startEvent" && node.eventStart != null ? { isInterrupting: node.eventStart.interrupting } : {})
  })
}

/** Boundary events' hosts and default flows: references to elements created after the node. */
const linkReferences = (w: Writer, node: GraphNode) => {
  const element = w.created.get(node.id) as unknown as Record<string, unknown>
  if (node.type === "boundaryEvent") {
    element["attachedToRef"] = w.created.get(node.boundary.attachedTo)
    element["cancelActivity"] = node.boundary.interrupting
  }
  if (node.defaultFlow !== null) element["default"] = w.created.get(node.defaultFlow)
}

/** The zeebe extension elements: task definition and headers, user task, script, decision, called element, io. */
const extensionValues = (w: Writer, node: GraphNode): Array<unknown> => {
  const { moddle } = w
  const values: Array<unknown> = []
  const job = jobOf(node)
  if (job !== null) {
    values.push(moddle.create("zeebe:TaskDefinition", { type: job.type, retries: String(job.retries) }))
    const headers = Object.entries(job.headers)
    if (headers.length > 0) {
      values.push(
        moddle.create("zeebe:TaskHeaders", {
          values: headers.map(([key, value]) => moddle.create("zeebe:Header", { key, value }))
        })
      )
    }
  }
  if (node.type === "userTask") values.push(...userTaskValues(w, node.userTask))
  if (node.type === "scriptTask") values.push(moddle.create("zeebe:Script", node.script))
  if (node.type === "businessRuleTask") {
    const { decisionId, resultVariable, versionTag, binding } = node.decision
    values.push(
      moddle.create("zeebe:CalledDecision", { decisionId, resultVariable, ...bindingOf(versionTag, binding) })
    )
  }
  if (node.type === "callActivity") {
    values.push(
      moddle.create("zeebe:CalledElement", {
        processId: node.call.processId,
        propagateAllChildVariables: node.call.propagateAllChildVariables,
        ...bindingOf(node.call.versionTag, node.call.binding)
      })
    )
  }
  if (node.inputs.length > 0 || node.outputs.length > 0) {
    values.push(moddle.create("zeebe:IoMapping", {
      inputParameters: node.inputs.map((m) => moddle.create("zeebe:Input", { source: m.source, target: m.target })),
      outputParameters: node.outputs.map((m) => moddle.create("zeebe:Output", { source: m.source, target: m.target }))
    }))
  }
  return values
}

/** The bindingType attributes of zeebe:calledElement, zeebe:calledDecision and zeebe:formDefinition ("latest": none). */
const bindingOf = (versionTag: string | null | undefined, binding: "deployment" | undefined) =>
  binding === "deployment"
    ? { bindingType: "deployment" }
    : versionTag == null
    ? {}
    : { bindingType: "versionTag", versionTag }

const userTaskValues = ({ moddle }: Writer, userTask: UserTaskDefinition): Array<unknown> => {
  const values: Array<unknown> = [moddle.create("zeebe:UserTask")]
  const { assignee, candidateGroups, candidateUsers, formKey } = userTask
  if (assignee !== null || candidateGroups.length > 0 || candidateUsers.length > 0) {
    values.push(moddle.create("zeebe:AssignmentDefinition", {
      ...(assignee === null ? {} : { assignee }),
      ...(candidateGroups.length === 0 ? {} : { candidateGroups: candidateGroups.join(",") }),
      ...(candidateUsers.length === 0 ? {} : { candidateUsers: candidateUsers.join(",") })
    }))
  }
  if (formKey !== null) {
    // A form bound by version tag or deployment is one deployed by its id (formId); otherwise the formKey as read.
    const bound = userTask.formVersionTag != null || userTask.formBinding !== undefined
    values.push(moddle.create("zeebe:FormDefinition", {
      ...(bound ? { formId: formKey } : { formKey }),
      ...bindingOf(userTask.formVersionTag, userTask.formBinding)
    }))
  }
  const { priority, dueDate, followUpDate } = userTask.schedule
  if (priority !== null) values.push(moddle.create("zeebe:PriorityDefinition", { priority }))
  if (dueDate !== null || followUpDate !== null) {
    values.push(moddle.create("zeebe:TaskSchedule", {
      ...(dueDate === null ? {} : { dueDate }),
      ...(followUpDate === null ? {} : { followUpDate })
    }))
  }
  return values
}

const loopOf = ({ moddle }: Writer, loop: MultiInstanceDefinition) =>
  moddle.create("bpmn:MultiInstanceLoopCharacteristics", {
    isSequential: loop.sequential,
    extensionElements: moddle.create("bpmn:ExtensionElements", {
      values: [moddle.create(
        "zeebe:LoopCharacteristics",
        Object.fromEntries(
          Object.entries({
            inputCollection: loop.inputCollection,
            inputElement: loop.inputElement,
            outputCollection: loop.outputCollection,
            outputElement: loop.outputElement
          }).filter(([, value]) => value !== null)
        )
      )]
    })
  })

/** An event's definition (none for a none event); process-level timer and conditional starts are in the graph. */
const eventDefinitionOf = (w: Writer, node: GraphNode): Created | undefined => {
  const { moddle, graph } = w
  if (isCatchEvent(node) || isThrowEvent(node)) {
    if (node.message !== null) {
      return moddle.create("bpmn:MessageEventDefinition", { messageRef: messageFor(w, node.id, node.message) })
    }
  }
  if (isThrowEvent(node) && node.signalThrow != null) return signalDefinition(w, node.id, node.signalThrow.name)
  if ((node.type === "intermediateCatchEvent" || node.type === "intermediateThrowEvent") && node.link != null) {
    return moddle.create("bpmn:LinkEventDefinition", { name: node.link.name })
  }
  if (isThrowEvent(node) && node.escalationThrow != null) {
    return escalationDefinition(w, node.id, node.escalationThrow.code)
  }
  if ((node.type === "startEvent" || node.type === "boundaryEvent") && node.escalationCatch != null) {
    return escalationDefinition(w, node.id, node.escalationCatch.code)
  }
  if (isCatchEvent(node) && node.condition != null) return conditionalDefinition(w, node.condition)
  if (isCatchEvent(node) && node.signal !== null) return signalDefinition(w, node.id, node.signal.name)
  if (isCatchEvent(node) && node.timer !== null) return timerDefinition(w, node.timer)
  const timerStart = (graph.timerStarts ?? []).find((t) => t.nodeId === node.id)
  if (timerStart !== undefined) return timerDefinition(w, timerStart.timer)
  if (node.type === "endEvent" && node.errorThrow !== null) {
    return errorDefinition(w, node.id, node.errorThrow.errorCode)
  }
  if ((node.type === "startEvent" || node.type === "boundaryEvent") && node.errorCatch !== null) {
    return errorDefinition(w, node.id, node.errorCatch.errorCode)
  }
  const conditionalStart = (graph.conditionalStarts ?? []).find((c) => c.nodeId === node.id)
  if (conditionalStart !== undefined) return conditionalDefinition(w, conditionalStart.condition)
  if (node.type === "endEvent" && node.terminate) return moddle.create("bpmn:TerminateEventDefinition")
  return undefined
}

const messageFor = (w: Writer, nodeId: string, definition: MessageDefinition) => {
  const message = w.moddle.create("bpmn:Message", {
    id: `Message_${nodeId}`,
    name: definition.name,
    extensionElements: w.moddle.create("bpmn:ExtensionElements", {
      values: definition.correlationKey === ""
        ? []
        : [w.moddle.create("zeebe:Subscription", { correlationKey: definition.correlationKey })]
    })
  })
  w.messages.push(message)
  return message
}

const signalDefinition = (w: Writer, nodeId: string, name: string) => {
  const signal = w.moddle.create("bpmn:Signal", { id: `Signal_${nodeId}`, name })
  w.signals.push(signal)
  return w.moddle.create("bpmn:SignalEventDefinition", { signalRef: signal })
}

const escalationDefinition = (w: Writer, nodeId: string, code: string | null) => {
  if (code === null) return w.moddle.create("bpmn:EscalationEventDefinition")
  const escalation = w.moddle.create("bpmn:Escalation", {
    id: `Escalation_${nodeId}`,
    name: code,
    escalationCode: code
  })
  w.escalations.push(escalation)
  return w.moddle.create("bpmn:EscalationEventDefinition", { escalationRef: escalation })
}

const errorDefinition = (w: Writer, nodeId: string, code: string | null) => {
  if (code === null) return w.moddle.create("bpmn:ErrorEventDefinition")
  const error = w.moddle.create("bpmn:Error", { id: `Error_${nodeId}`, name: code, errorCode: code })
  w.errors.push(error)
  return w.moddle.create("bpmn:ErrorEventDefinition", { errorRef: error })
}

const conditionalDefinition = ({ moddle }: Writer, condition: string) =>
  moddle.create("bpmn:ConditionalEventDefinition", {
    condition: moddle.create("bpmn:FormalExpression", { body: condition })
  })

const timerDefinition = ({ moddle }: Writer, timer: TimerDefinition) =>
  moddle.create("bpmn:TimerEventDefinition", {
    [timer.kind === "duration" ? "timeDuration" : "timeDate"]: moddle.create("bpmn:FormalExpression", {
      body: timer.expression
    })
  })

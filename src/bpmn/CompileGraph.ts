// Both model formats are read into a draft (Draft.ts), and one compiler turns a draft into the executable graph,
// listing every problem by element id (never stopping at the first).
export type { Draft, DraftFlow, DraftNode } from "./Draft.ts"
import { asksWorker, compileAdHoc } from "./AdHocSubProcesses.ts"
import { compileCalledDecision } from "./CalledDecision.ts"
import { compileWithCompensation } from "./Compensation.ts"
import type { Draft } from "./Draft.ts"
import { boundariesOf, BOUNDARY_HOSTS, isExecutable, MULTI_INSTANCE_TYPES, NOT_YET } from "./ElementKinds.ts"
import { compileListeners } from "./ExecutionListeners.ts"
import { feelSyntaxProblem, isExpression } from "./Expressions.ts"
import {
  type BoundaryEventNode,
  type Compiled,
  emptyUserTask,
  type GraphFlow,
  type GraphNode,
  type LinkDefinition,
  type Mapping,
  type MessageDefinition,
  type MultiInstanceDefinition,
  type Problem,
  type ThrowEventNode,
  type UserTaskDefinition
} from "./ProcessGraph.ts"
import { noSchedule, scheduleProblems } from "./TaskSchedule.ts"
import { literalTimerProblem, type TimerDefinition } from "./Timer.ts"

/** Compiles a draft, its compensation included (Compensation.ts). */
export const compileDraft = (draft: Draft): Compiled => compileWithCompensation(draft, compileElements)

const compileElements = (draft: Draft): Compiled => {
  const problems: Array<Problem> = []
  const problem = (elementId: string, message: string) => problems.push({ elementId, message })
  const ids = new Set<string>()
  for (const element of [...draft.nodes, ...draft.flows]) {
    if (element.id === "") problem(draft.key, "an element has no id")
    else if (ids.has(element.id)) problem(element.id, `duplicate element id ${element.id}`)
    ids.add(element.id)
  }
  if (draft.key === "" || !/^[A-Za-z_][\w.-]*$/.test(draft.key)) {
    problem(
      draft.key || "process",
      "the process id must start with a letter or _ and contain only letters, digits, _ . -"
    )
  }

  const nodeIds = new Set(draft.nodes.map((n) => n.id))
  const flows: Record<string, GraphFlow> = {}
  const scopeOf = new Map(draft.nodes.map((n) => [n.id, n.scope ?? null]))
  const incomingCount = (nodeId: string) => draft.flows.filter((f) => f.target === nodeId).length
  for (const flow of draft.flows) {
    if (!nodeIds.has(flow.source)) {
      problem(flow.id, `sequence flow ${flow.id} starts at unknown element "${flow.source}"`)
    }
    if (!nodeIds.has(flow.target)) problem(flow.id, `sequence flow ${flow.id} ends at unknown element "${flow.target}"`)
    if (nodeIds.has(flow.source) && nodeIds.has(flow.target) && scopeOf.get(flow.source) !== scopeOf.get(flow.target)) {
      problem(flow.id, `sequence flow ${flow.id} crosses a subprocess boundary`)
    }
    if (flow.condition !== null) {
      const syntax = feelSyntaxProblem(flow.condition)
      if (syntax !== null) problem(flow.id, `condition: ${syntax}`)
    }
    flows[flow.id] = { id: flow.id, source: flow.source, target: flow.target, condition: flow.condition }
  }

  const nodes: Record<string, GraphNode> = {}
  const startNodeIds: Array<string> = []
  const messageStarts: Array<{ readonly nodeId: string; readonly messageName: string }> = []
  const signalStarts: Array<{ readonly nodeId: string; readonly signalName: string }> = []
  const conditionalStarts: Array<{ readonly nodeId: string; readonly condition: string }> = []
  const timerStarts: Array<
    {
      readonly nodeId: string
      readonly timer: { readonly kind: "duration" | "date" | "cycle"; readonly expression: string }
    }
  > = []
  const draftNodes = new Map(draft.nodes.map((n) => [n.id, n]))
  /** The start events of the event subprocesses directly inside a scope (null: the process). */
  const eventStartsIn = (scopeId: string | null): Array<string> =>
    draft.nodes.filter((n) =>
      n.type === "startEvent" && n.scope != null && draftNodes.get(n.scope)?.triggeredByEvent === true &&
      (draftNodes.get(n.scope)!.scope ?? null) === scopeId
    ).map((n) => n.id)
  for (const draftNode of draft.nodes) {
    const { id, type } = draftNode
    if (!isExecutable(type)) {
      problem(id, NOT_YET[type] ?? `element type "${type}" is not supported`)
      continue
    }
    const scope = draftNode.scope ?? null
    const definitions = draftNode.eventDefinitions ?? []
    if (definitions.length > 1) {
      problem(id, `${type} ${id} has ${definitions.length} event definitions: only one per event is supported`)
      continue
    }
    const kind = definitions[0] ?? null
    const catching = type === "intermediateCatchEvent" || type === "boundaryEvent"
    const isBoundary = type === "boundaryEvent"
    // The start event of an event subprocess: triggered by its event while the enclosing scope runs.
    const eventSubprocess = type === "startEvent" && scope !== null && draftNodes.get(scope)?.triggeredByEvent === true
      ? draftNodes.get(scope)!
      : null
    const waitsForMessage = type === "receiveTask" || ((catching || eventSubprocess !== null) && kind === "message")
    const waitsForSignal = (catching || eventSubprocess !== null) && kind === "signal"
    const waitsForTimer = (catching || eventSubprocess !== null) && kind === "timer"
    const waitsForCondition = (catching || eventSubprocess !== null) && kind === "conditional"
    const catchesError = (isBoundary || eventSubprocess !== null) && kind === "error"
    const catchesEscalation = (isBoundary || eventSubprocess !== null) && kind === "escalation"
    const throwsEscalation = (type === "endEvent" || type === "intermediateThrowEvent") && kind === "escalation"
    const throwsError = type === "endEvent" && kind === "error"
    const throwsSignal = (type === "endEvent" || type === "intermediateThrowEvent") && kind === "signal"
    // Zeebe: a message throw event is done by a job worker, like a send task.
    const throwsMessage = (type === "endEvent" || type === "intermediateThrowEvent") && kind === "message"
    // Link events (BPMN 10.5.6): a throw link continues at the catch link of the same name in the same scope.
    const linkThrow = type === "intermediateThrowEvent" && kind === "link"
    const linkCatch = type === "intermediateCatchEvent" && kind === "link"
    if (
      catching && !waitsForMessage && !waitsForSignal && !waitsForTimer && !catchesError && !catchesEscalation &&
      !waitsForCondition && !linkCatch
    ) {
      problem(
        id,
        draftNode.timer?.kind === "cycle"
          ? "repeating timers (timeCycle) are not supported: a timer fires once"
          : `${definitions.join(", ") || "untyped"} ${
            type === "boundaryEvent" ? "boundary" : "intermediate catch"
          } events are not supported`
      )
      continue
    }
    if (eventSubprocess !== null && kind === null) {
      problem(
        id,
        `the start event of event subprocess ${scope} needs a message, timer, signal, error or conditional event definition`
      )
      continue
    }
    // A message start event (at process level) starts an instance when a message of that name is published.
    const messageStart = type === "startEvent" && scope === null && kind === "message"
    const signalStart = type === "startEvent" && scope === null && kind === "signal"
    const conditionalStart = type === "startEvent" && scope === null && kind === "conditional"
    const timerStart = type === "startEvent" && scope === null && kind === "timer"
    if (timerStart) {
      const definition = draftNode.timer ?? null
      if (definition === null || definition.expression === null || definition.expression === "") {
        problem(id, `timer start event ${id} needs a timeDate, timeDuration or timeCycle`)
      } else if (isExpression(definition.expression)) {
        problem(id, "a timer start event needs a literal date-time or duration (there are no variables yet)")
      } else if (literalTimerProblem(definition.kind, definition.expression) !== undefined) {
        problem(id, literalTimerProblem(definition.kind, definition.expression)!)
      } else timerStarts.push({ nodeId: id, timer: { kind: definition.kind, expression: definition.expression } })
    }
    if (conditionalStart) {
      const condition = draftNode.condition ?? ""
      if (condition === "") problem(id, `conditional start event ${id} needs a condition`)
      else {
        const syntax = feelSyntaxProblem(condition)
        if (syntax !== null) problem(id, `condition: ${syntax}`)
        else conditionalStarts.push({ nodeId: id, condition })
      }
    }
    let condition: string | null = null
    if (waitsForCondition) {
      const text = draftNode.condition ?? ""
      if (text === "") problem(id, `conditional event ${id} needs a condition`)
      else {
        const syntax = feelSyntaxProblem(text)
        if (syntax !== null) problem(id, `condition: ${syntax}`)
      }
      condition = text
    }
    let signalThrow: ThrowEventNode["signalThrow"] = null
    if (throwsSignal) {
      const name = draftNode.signal?.name ?? null
      if (name === null || name === "") problem(id, `signal throw event ${id} needs a signal with a name`)
      signalThrow = { name: name ?? "" }
    }
    const understood = waitsForMessage || waitsForSignal || waitsForTimer || waitsForCondition || catchesError ||
      throwsError || throwsSignal ||
      throwsMessage || messageStart || signalStart || conditionalStart || timerStart || linkThrow || linkCatch ||
      catchesEscalation || throwsEscalation ||
      (kind === "compensation" && (type === "endEvent" || type === "intermediateThrowEvent"))
    if (!understood && kind !== null) {
      problem(
        id,
        draftNode.timer?.kind === "cycle"
          ? "repeating timers (timeCycle) are not supported: a timer fires once"
          : `${kind} ${
            type === "startEvent" ? "start" : type === "endEvent" ? "end" : "intermediate"
          } events are not supported`
      )
      continue
    }
    const incoming = draft.flows.filter((f) => f.target === id).map((f) => f.id)
    const outgoing = draft.flows.filter((f) => f.source === id).map((f) => f.id)
    const checkMapping = (kind: string) => (mapping: Mapping) => {
      if (mapping.target === "") problem(id, `${kind} mapping from "${mapping.source}" has no target`)
      if (isExpression(mapping.source)) {
        const syntax = feelSyntaxProblem(mapping.source)
        if (syntax !== null) problem(id, `${kind} mapping ${mapping.target}: ${syntax}`)
      }
    }
    const inputs = draftNode.inputs ?? []
    const outputs = draftNode.outputs ?? []
    inputs.forEach(checkMapping("input"))
    outputs.forEach(checkMapping("output"))

    let boundary: BoundaryEventNode["boundary"] | null = null
    if (isBoundary) {
      const attachedTo = draftNode.boundary?.attachedTo ?? null
      const host = draft.nodes.find((n) => n.id === attachedTo)
      if (attachedTo === null || host === undefined) problem(id, `boundary event ${id} is not attached to an activity`)
      else if (!BOUNDARY_HOSTS.has(host.type)) {
        problem(id, `boundary event ${id} is attached to ${host.type} ${attachedTo}, which cannot have boundary events`)
      }
      if (incoming.length > 0) problem(id, "a boundary event cannot have incoming sequence flows")
      boundary = { attachedTo: attachedTo ?? "", interrupting: draftNode.boundary?.cancelActivity ?? true }
      if (catchesError && !boundary.interrupting) {
        problem(id, "an error boundary event always interrupts its activity (cancelActivity must be true)")
      }
      if (catchesEscalation && host !== undefined && host.type !== "subProcess" && host.type !== "callActivity") {
        problem(
          id,
          `an escalation boundary event belongs on a subprocess or call activity, not on ${host.type} ${host.id}`
        )
      }
    }
    const isEventSubprocess = type === "subProcess" && draftNode.triggeredByEvent === true
    if (isEventSubprocess) {
      if (incoming.length > 0 || outgoing.length > 0) {
        problem(id, `event subprocess ${id} cannot have incoming or outgoing sequence flows`)
      }
      if (draftNode.multiInstance != null) problem(id, `event subprocess ${id} cannot be multi-instance`)
      if (draft.nodes.some((n) => n.type === "boundaryEvent" && n.boundary?.attachedTo === id)) {
        problem(id, `event subprocess ${id} cannot have boundary events`)
      }
    }
    const eventStart = eventSubprocess === null
      ? null
      : { subprocessId: eventSubprocess.id, interrupting: draftNode.interrupting !== false }
    if (eventStart !== null && catchesError && !eventStart.interrupting) {
      problem(id, "an error start event always interrupts its scope (isInterrupting must be true)")
    }
    if (throwsError && (draftNode.errorCode ?? "") === "") problem(id, `error end event ${id} needs an error code`)
    if (throwsEscalation && (draftNode.escalationCode ?? "") === "") {
      problem(id, `escalation throw event ${id} needs an escalation code`)
    }
    // Inside an ad-hoc subprocess an element may be started with no incoming flow, and a path may end anywhere.
    const inAdHoc = scope !== null && draftNodes.get(scope)?.type === "adHocSubProcess"
    const handler = draftNode.forCompensation === true
    if (type === "startEvent") {
      if (scope === null && !messageStart && !signalStart && !conditionalStart && !timerStart) startNodeIds.push(id)
      if (incoming.length > 0) problem(id, "a start event cannot have incoming sequence flows")
    } else if (incoming.length === 0 && !isBoundary && !isEventSubprocess && !linkCatch && !inAdHoc && !handler) {
      problem(id, `${type} ${id} has no incoming sequence flow, so it can never be reached`)
    }
    if (type === "endEvent" && outgoing.length > 0) problem(id, "an end event cannot have outgoing sequence flows")
    if (type !== "endEvent" && !isEventSubprocess && !linkThrow && outgoing.length === 0 && !inAdHoc && !handler) {
      problem(id, `${type} ${id} has no outgoing sequence flow`)
    }
    let link: LinkDefinition | null = null
    if (linkThrow || linkCatch) {
      const name = draftNode.linkName ?? ""
      if (name === "") problem(id, `link event ${id} needs a name`)
      const catches = draft.nodes.filter((n) =>
        n.type === "intermediateCatchEvent" && (n.eventDefinitions ?? [])[0] === "link" &&
        (n.linkName ?? "") === name && (n.scope ?? null) === scope
      )
      if (linkThrow && name !== "" && catches.length !== 1) {
        problem(
          id,
          catches.length === 0
            ? `no link catch event named "${name}" in the same scope as ${id}`
            : `${catches.length} link catch events are named "${name}" in the scope of ${id}`
        )
      }
      if (linkThrow && outgoing.length > 0) problem(id, `link throw event ${id} cannot have outgoing sequence flows`)
      if (linkCatch && incoming.length > 0) problem(id, `link catch event ${id} cannot have incoming sequence flows`)
      link = { name, target: linkThrow ? catches[0]?.id ?? null : null }
    }

    const jobType = draftNode.jobType ?? null
    const doneByJob = type === "serviceTask" || type === "sendTask" || throwsMessage || asksWorker(draftNode)
    if (doneByJob && (jobType === null || jobType === "")) {
      problem(
        id,
        throwsMessage
          ? `message throw event ${id} needs a task type (zeebe:taskDefinition type): a job worker sends the message`
          : `${type} ${id} needs a task type (zeebe:taskDefinition type)`
      )
    }
    if (type === "userTask") {
      for (const p of scheduleProblems(draftNode.userTask?.schedule ?? noSchedule)) problem(id, p)
    }
    if (type === "scriptTask") {
      const script = draftNode.script ?? null
      if (script === null || script.expression === "" || script.resultVariable === "") {
        problem(id, "a script task needs a FEEL expression and a result variable (zeebe:script)")
      } else {
        const syntax = feelSyntaxProblem(script.expression)
        if (syntax !== null) problem(id, `script: ${syntax}`)
      }
    }
    let message: MessageDefinition | null = null
    if (messageStart) {
      const name = draftNode.message?.name ?? null
      if (name === null || name === "") problem(id, `message start event ${id} needs a message with a name`)
      else messageStarts.push({ nodeId: id, messageName: name })
      message = { name: name ?? "", correlationKey: draftNode.message?.correlationKey ?? "" }
    }
    if (throwsMessage) message = { name: draftNode.message?.name ?? "", correlationKey: "" }
    let timer: TimerDefinition | null = null
    if (waitsForTimer) {
      const definition = draftNode.timer ?? null
      // A cycle repeats: on a non-interrupting boundary event or event-subprocess start (and timer start events).
      const repeats = (boundary !== null && !boundary.interrupting) || (eventStart !== null && !eventStart.interrupting)
      if (definition === null || definition.expression === null || definition.expression === "") {
        problem(id, `timer catch event ${id} needs a timeDuration or timeDate`)
      } else if (definition.kind === "cycle" && !repeats) {
        problem(
          id,
          "a timer cycle (timeCycle) repeats: it belongs on timer start events, non-interrupting boundary events and non-interrupting event subprocess starts"
        )
      } else {
        if (isExpression(definition.expression)) {
          const syntax = feelSyntaxProblem(definition.expression)
          if (syntax !== null) problem(id, `timer: ${syntax}`)
        } else if (literalTimerProblem(definition.kind, definition.expression) !== undefined) {
          problem(id, literalTimerProblem(definition.kind, definition.expression)!)
        }
        timer = { kind: definition.kind, expression: definition.expression }
      }
    }
    let signal: { readonly name: string } | null = null
    if (waitsForSignal || signalStart) {
      const name = draftNode.signal?.name ?? null
      if (name === null || name === "") {
        problem(
          id,
          `signal ${
            type === "startEvent" && eventStart === null ? "start" : "catch"
          } event ${id} needs a signal with a name`
        )
      } else if (signalStart) signalStarts.push({ nodeId: id, signalName: name })
      signal = { name: name ?? "" }
    }
    if (waitsForMessage) {
      const name = draftNode.message?.name ?? null
      const correlationKey = draftNode.message?.correlationKey ?? null
      if (name === null || name === "") problem(id, `${type} ${id} needs a message with a name`)
      if (correlationKey === null || correlationKey === "") {
        problem(id, `${type} ${id} needs a correlation key (zeebe:subscription correlationKey)`)
      } else if (isExpression(correlationKey)) {
        const syntax = feelSyntaxProblem(correlationKey)
        if (syntax !== null) problem(id, `correlation key: ${syntax}`)
      }
      message = { name: name ?? "", correlationKey: correlationKey ?? "" }
    }
    const processId = draftNode.call?.processId ?? null
    if (type === "callActivity" && (processId === null || processId === "")) {
      problem(id, `call activity ${id} needs the id of the process to call (zeebe:calledElement processId)`)
    }
    if (draftNode.standardLoop === true) problem(id, "standard loops are not supported: use multi-instance")
    let multiInstance: MultiInstanceDefinition | null = null
    const loop = draftNode.multiInstance ?? null
    if (loop !== null) {
      if (!MULTI_INSTANCE_TYPES.has(type)) problem(id, `${type} ${id} cannot be multi-instance`)
      if (loop.inputCollection === null || loop.inputCollection === "") {
        problem(id, "multi-instance needs an input collection (zeebe:loopCharacteristics inputCollection)")
      } else {
        const syntax = feelSyntaxProblem(loop.inputCollection)
        if (syntax !== null) problem(id, `input collection: ${syntax}`)
      }
      if (loop.outputElement !== null && loop.outputElement !== "") {
        const syntax = feelSyntaxProblem(loop.outputElement)
        if (syntax !== null) problem(id, `output element: ${syntax}`)
        if (loop.outputCollection === null || loop.outputCollection === "") {
          problem(id, "an output element needs an output collection")
        }
      }
      multiInstance = {
        sequential: loop.sequential,
        inputCollection: loop.inputCollection ?? "",
        inputElement: loop.inputElement || null,
        outputCollection: loop.outputCollection || null,
        outputElement: loop.outputElement || null
      }
    }
    const defaultFlow = draftNode.defaultFlow ?? null
    if (defaultFlow !== null && !outgoing.includes(defaultFlow)) {
      problem(id, `default flow ${defaultFlow} is not an outgoing flow of ${id}`)
    }
    if (type === "eventBasedGateway") {
      if (outgoing.length < 2) problem(id, `event-based gateway ${id} needs at least two outgoing flows`)
      for (const flowId of outgoing) {
        const target = draft.nodes.find((n) => n.id === flows[flowId]?.target)
        const kinds = target?.eventDefinitions ?? []
        if (
          target === undefined || target.type !== "intermediateCatchEvent" || kinds.length !== 1 ||
          !["message", "signal", "timer"].includes(kinds[0]!)
        ) {
          problem(
            id,
            `outgoing flow ${flowId} of event-based gateway ${id} must lead to a message, signal or timer catch event`
          )
        }
      }
    }
    if ((type === "exclusiveGateway" || type === "inclusiveGateway") && outgoing.length > 1) {
      for (const flowId of outgoing) {
        if (flowId !== defaultFlow && flows[flowId]?.condition == null) {
          problem(
            id,
            `outgoing flow ${flowId} of ${
              type === "exclusiveGateway" ? "exclusive" : "inclusive"
            } gateway ${id} has neither a condition nor is it the default flow`
          )
        }
      }
    }
    const innerStarts = type === "subProcess"
      ? draft.nodes.filter((n) => n.scope === id && n.type === "startEvent").map((n) => n.id)
      : []
    if (type === "subProcess" && innerStarts.length !== 1) {
      problem(id, `subprocess ${id} has ${innerStarts.length === 0 ? "no start event" : "more than one start event"}`)
    }
    nodes[id] = {
      id,
      type,
      name: draftNode.name,
      scope,
      startNodeIds: innerStarts,
      incoming,
      outgoing,
      defaultFlow,
      terminate: draftNode.terminate === true,
      job: doneByJob
        ? { type: jobType ?? "", retries: draftNode.retries ?? 3, headers: draftNode.headers ?? {} }
        : null,
      userTask: type === "userTask" ? draftNode.userTask ?? emptyUserTask : null,
      script: type === "scriptTask" ? draftNode.script ?? null : null,
      message,
      signal,
      timer,
      boundary,
      errorCatch: catchesError ? { errorCode: draftNode.errorCode || null } : null,
      ...(catchesEscalation ? { escalationCatch: { code: draftNode.escalationCode || null } } : {}),
      ...(throwsEscalation ? { escalationThrow: { code: draftNode.escalationCode ?? "" } } : {}),
      ...(condition === null ? {} : { condition }),
      ...(signalThrow === null ? {} : { signalThrow }),
      ...(link === null ? {} : { link }),
      ...(isEventSubprocess ? { triggeredByEvent: true } : {}),
      ...(eventStart === null ? {} : { eventStart }),
      ...(type === "subProcess" && eventStartsIn(id).length > 0 ? { eventStartIds: eventStartsIn(id) } : {}),
      ...(type === "adHocSubProcess" ? { adHoc: compileAdHoc(draftNode, draft.nodes, incomingCount, problem) } : {}),
      ...compileListeners(draftNode, problem),
      errorThrow: throwsError ? { errorCode: draftNode.errorCode ?? "" } : null,
      boundaryIds: boundariesOf(draft, id),
      multiInstance,
      decision: type === "businessRuleTask" ? compileCalledDecision(draftNode, problem) : null,
      call: type === "callActivity"
        ? { propagateAllChildVariables: true, versionTag: null, ...draftNode.call, processId: processId ?? "" }
        : null,
      inputs,
      outputs
      // Every field of every node type, as graphs had them before GraphNode became a union (compile/ splits this).
    } as unknown as GraphNode
  }
  if (startNodeIds.length === 0 && draft.nodes.every((n) => n.type !== "startEvent")) {
    problem(draft.key || "process", "the process has no start event")
  }
  if (problems.length > 0) return { ok: false, problems }
  const rootEventStarts = eventStartsIn(null)
  return {
    ok: true,
    graph: {
      key: draft.key,
      name: draft.name,
      nodes,
      flows,
      startNodeIds,
      messageStarts,
      signalStarts,
      conditionalStarts,
      timerStarts,
      ...(rootEventStarts.length > 0 ? { eventStartIds: rootEventStarts } : {})
    }
  }
}

/** "a, b , c" or ["a","b"] -> ["a","b","c"] */
export const listOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim())
    : typeof value === "string"
    ? value.split(",").map((v) => v.trim()).filter((v) => v !== "")
    : []

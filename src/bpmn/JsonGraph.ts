// The JSON graph format: { id, name?, versionTag?, nodes: [{ id, type, name?, properties? }], flows: [{ id, source, target,
// condition?, default? }] }. `type` is a BPMN element type in camelCase; `properties` carries what the zeebe
// extensions carry in XML:
//   serviceTask / sendTask: taskType (required), retries (default 3), headers {k: v}
//   userTask: assignee, candidateGroups (list or "a,b"), candidateUsers, formKey, priority (0..100), dueDate,
//     followUpDate (literals or "= FEEL")
//   scriptTask: expression (FEEL), resultVariable
//   receiveTask / intermediateCatchEvent (message): messageName, correlationKey (FEEL, evaluated when the token arrives)
//   startEvent: messageName makes it a message start event, signalName a signal start event, condition (FEEL) a
//     conditional start event, timeDate / timeDuration (from deployment) a timer start event
//   intermediateCatchEvent: signalName makes it a signal catch event; timeDuration (ISO 8601 or FEEL) or timeDate a timer
//   any activity: inputMappings / outputMappings [{ source: "= expr", target: "name" }]
//   endEvent: terminate (true for a terminate end event)
//   businessRuleTask: decisionId (latest version of that decision), resultVariable (default "result")
//   boundaryEvent: attachedTo (activity id), cancelActivity (default true), and one of messageName + correlationKey,
//     signalName, timeDuration / timeDate, or error: true with an optional errorCode (none catches every error)
//   endEvent: errorCode makes it an error end event
//   callActivity: processId (the process key to start, latest version), propagateAllChildVariables (default true),
//     versionTag (start the latest version deployed with that tag instead)
//   any activity: multiInstance { sequential, inputCollection (FEEL), inputElement, outputCollection, outputElement (FEEL) }
//   subProcess: nodes and flows of the embedded subprocess (same format), inputMappings / outputMappings;
//     triggeredByEvent: true makes it an event subprocess (no flows in or out), whose one start event carries
//     messageName + correlationKey, signalName, timeDuration / timeDate, condition, or error: true / errorCode, and
//     interrupting (default true)
//   intermediateCatchEvent / boundaryEvent: condition (FEEL) makes it a conditional event (triggers when it becomes true)
//   escalationCode makes an escalation event: thrown by intermediateThrowEvent / endEvent, caught by a boundaryEvent on
//     a subprocess or call activity or an event subprocess start (escalation: true without a code catches every one)
//   intermediateThrowEvent / intermediateCatchEvent: linkName makes a link event (the throw continues at the catch of
//     the same name in its scope)
//   intermediateThrowEvent: none (passes through), signalName (broadcasts the signal; input mappings are its
//     variables), or messageName + taskType (a job worker sends the message); endEvent: signalName likewise
// A flow with default: true is its source gateway's default flow.
import { listOf } from "./CompileGraph.ts"
import type { Draft, DraftNode } from "./Draft.ts"
import type { Mapping, Problem, UserTaskDefinition } from "./ProcessGraph.ts"
import { DEFAULT_XML_LIMITS } from "./XmlPrecheck.ts"

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === "string" ? value : null)

const mappingList = (
  value: unknown,
  path: string,
  problems: Array<Problem>,
  elementId: string
): ReadonlyArray<Mapping> => {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    problems.push({ elementId, message: `${path} must be a list of { source, target }` })
    return []
  }
  return value.flatMap((entry, index) => {
    if (!isObject(entry) || typeof entry["source"] !== "string" || typeof entry["target"] !== "string") {
      problems.push({ elementId, message: `${path}[${index}] must be { source, target } strings` })
      return []
    }
    return [{ source: entry["source"], target: entry["target"] }]
  })
}

export type JsonReadResult = { readonly ok: true; readonly draft: Draft; readonly versionTag: string | null } | {
  readonly ok: false
  readonly problems: ReadonlyArray<Problem>
}

type JsonFlow = { id: string; source: string; target: string; condition: string | null; isDefault: boolean }

export const readJsonGraph = (json: unknown): JsonReadResult => {
  const problems: Array<Problem> = []
  if (!isObject(json) || !Array.isArray(json["nodes"]) || !Array.isArray(json["flows"])) {
    return {
      ok: false,
      problems: [{ elementId: "process", message: "a JSON graph is { id, name?, nodes: [...], flows: [...] }" }]
    }
  }
  const elements = elementCount(json, DEFAULT_XML_LIMITS.maxElements)
  if (elements > DEFAULT_XML_LIMITS.maxElements) {
    return {
      ok: false,
      problems: [{
        elementId: "process",
        message: `the graph has more than ${DEFAULT_XML_LIMITS.maxElements} nodes and flows (subprocesses included), ` +
          "the limit of a BPMN document too"
      }]
    }
  }
  const nodes: Array<DraftNode> = []
  const flows: Array<JsonFlow> = []
  collect(json["nodes"], json["flows"], null, { nodes, flows, problems })
  if (problems.length > 0) return { ok: false, problems }
  return {
    ok: true,
    draft: {
      key: text(json["id"]) ?? "",
      name: text(json["name"]),
      nodes,
      flows: flows.map(({ isDefault: _, ...flow }) => flow)
    },
    versionTag: text(json["versionTag"]) || null
  }
}

/**
 * How many nodes and flows the graph has at every level, counted up to just past `cap`, before anything is read: the
 * same cap as a BPMN document's elements (XmlPrecheck.ts), so a huge graph is refused before its compile.
 */
const elementCount = (graph: Json, cap: number): number => {
  let count = 0
  const levels: Array<Json> = [graph]
  for (let level = levels.pop(); level !== undefined && count <= cap; level = levels.pop()) {
    const nodes = Array.isArray(level["nodes"]) ? level["nodes"] : []
    count += nodes.length + (Array.isArray(level["flows"]) ? level["flows"].length : 0)
    for (const node of nodes) {
      if (isObject(node) && node["type"] === "subProcess" && isObject(node["properties"])) {
        levels.push(node["properties"])
      }
    }
  }
  return count
}

/** What reading a graph gathers: nodes and flows of every level (subprocesses flattened), and problems. */
interface Gathered {
  readonly nodes: Array<DraftNode>
  readonly flows: Array<JsonFlow>
  readonly problems: Array<Problem>
}

/** One level of the graph (the process, or a subprocess's `properties.nodes` and `properties.flows`). */
const collect = (
  rawNodes: ReadonlyArray<unknown>,
  rawFlows: ReadonlyArray<unknown>,
  scope: string | null,
  gathered: Gathered
) => {
  const levelFlows = readFlows(rawFlows, gathered.problems)
  gathered.flows.push(...levelFlows)
  const defaultsFrom = new Map<string, Array<JsonFlow>>()
  for (const flow of levelFlows.filter((f) => f.isDefault)) {
    const defaults = defaultsFrom.get(flow.source)
    if (defaults === undefined) defaultsFrom.set(flow.source, [flow])
    else defaults.push(flow)
  }
  rawNodes.forEach((node, index) => {
    if (!isObject(node) || typeof node["id"] !== "string" || typeof node["type"] !== "string") {
      gathered.problems.push({
        elementId: isObject(node) && typeof node["id"] === "string" ? node["id"] : `nodes[${index}]`,
        message: "a node needs id and type strings"
      })
      return
    }
    const id = node["id"]
    const properties = isObject(node["properties"]) ? node["properties"] : {}
    const defaults = defaultsFrom.get(id) ?? []
    if (defaults.length > 1) {
      gathered.problems.push({ elementId: id, message: "only one outgoing flow can be the default" })
    }
    gathered.nodes.push({
      id,
      type: node["type"],
      name: text(node["name"]),
      scope,
      ...eventPropertiesOf(node["type"], properties),
      ...activityPropertiesOf(node["type"], properties),
      inputs: mappingList(properties["inputMappings"], "inputMappings", gathered.problems, id),
      outputs: mappingList(properties["outputMappings"], "outputMappings", gathered.problems, id),
      defaultFlow: defaults[0]?.id ?? null
    })
    if (node["type"] === "subProcess") {
      const innerNodes = properties["nodes"]
      const innerFlows = properties["flows"]
      if (!Array.isArray(innerNodes) || !Array.isArray(innerFlows)) {
        gathered.problems.push({
          elementId: id,
          message: "a subProcess needs properties.nodes and properties.flows lists"
        })
      } else {
        collect(innerNodes, innerFlows, id, gathered)
      }
    }
  })
}

const readFlows = (rawFlows: ReadonlyArray<unknown>, problems: Array<Problem>): Array<JsonFlow> =>
  rawFlows.flatMap((flow, index) => {
    if (
      !isObject(flow) || typeof flow["id"] !== "string" || typeof flow["source"] !== "string" ||
      typeof flow["target"] !== "string"
    ) {
      problems.push({
        elementId: isObject(flow) && typeof flow["id"] === "string" ? flow["id"] : `flows[${index}]`,
        message: "a flow needs id, source and target strings"
      })
      return []
    }
    return [{
      id: flow["id"],
      source: flow["source"],
      target: flow["target"],
      condition: text(flow["condition"]),
      isDefault: flow["default"] === true
    }]
  })

/** Which event definition the properties make: link, escalation, error, conditional, timer, message, signal. */
const eventKindOf = (type: string, properties: Json) => {
  const messageName = text(properties["messageName"])
  const signalName = text(properties["signalName"])
  const catching = type === "intermediateCatchEvent" || type === "boundaryEvent"
  const throwing = type === "intermediateThrowEvent" || type === "endEvent"
  const catchCondition = catching || type === "startEvent" ? text(properties["condition"]) : null
  const isMessageCatch =
    (catching && signalName === null && catchCondition === null && properties["timeDuration"] === undefined &&
      properties["timeDate"] === undefined && properties["timeCycle"] === undefined &&
      properties["error"] === undefined &&
      properties["escalation"] === undefined && properties["escalationCode"] === undefined &&
      properties["linkName"] === undefined &&
      properties["errorCode"] === undefined &&
      (messageName !== null || properties["eventDefinitions"] === undefined)) ||
    ((type === "startEvent" || throwing) && messageName !== null)
  const isSignal = (catching || throwing || type === "startEvent") && signalName !== null
  const isTimer = (catching || type === "startEvent") &&
    (text(properties["timeDuration"]) !== null || text(properties["timeDate"]) !== null ||
      text(properties["timeCycle"]) !== null)
  const errorCode = text(properties["errorCode"])
  const isEscalation = text(properties["escalationCode"]) !== null ||
    ((type === "boundaryEvent" || type === "startEvent") && properties["escalation"] === true)
  const isError = ((type === "boundaryEvent" || type === "startEvent") &&
    (properties["error"] === true || errorCode !== null)) ||
    (type === "endEvent" && errorCode !== null)
  return { catchCondition, isMessageCatch, isSignal, isTimer, isEscalation, isError }
}

/** What events carry: their definition, timer, signal, condition, link, error and escalation codes, message. */
const eventPropertiesOf = (type: string, properties: Json): Partial<DraftNode> => {
  const { catchCondition, isMessageCatch, isSignal, isTimer, isEscalation, isError } = eventKindOf(type, properties)
  const linkName = text(properties["linkName"])
  const timeDuration = text(properties["timeDuration"])
  const timeCycle = text(properties["timeCycle"])
  return {
    terminate: properties["terminate"] === true,
    condition: catchCondition,
    ...(linkName === null ? {} : { linkName }),
    errorCode: text(properties["errorCode"]),
    ...(type === "subProcess" && properties["triggeredByEvent"] === true ? { triggeredByEvent: true } : {}),
    ...(type === "startEvent" ? { interrupting: properties["interrupting"] !== false } : {}),
    escalationCode: text(properties["escalationCode"]),
    eventDefinitions: linkName !== null
      ? ["link"]
      : isEscalation
      ? ["escalation"]
      : isError
      ? ["error"]
      : catchCondition !== null
      ? ["conditional"]
      : isTimer
      ? ["timer"]
      : isMessageCatch
      ? ["message"]
      : isSignal
      ? ["signal"]
      : listOf(properties["eventDefinitions"]),
    timer: !isTimer ? null : timeCycle !== null
      ? { kind: "cycle", expression: timeCycle }
      : timeDuration !== null
      ? { kind: "duration", expression: timeDuration }
      : { kind: "date", expression: text(properties["timeDate"]) },
    signal: isSignal ? { name: text(properties["signalName"]) } : null,
    boundary: type === "boundaryEvent"
      ? { attachedTo: text(properties["attachedTo"]), cancelActivity: properties["cancelActivity"] !== false }
      : null,
    message: type === "receiveTask" || isMessageCatch
      ? { name: text(properties["messageName"]), correlationKey: text(properties["correlationKey"]) }
      : null
  }
}

/** What activities carry: a job, a user task, a script, a decision, a call, a multi-instance loop. */
const activityPropertiesOf = (type: string, properties: Json): Partial<DraftNode> => {
  const retries = properties["retries"]
  const headers = properties["headers"]
  const expression = text(properties["expression"]) ?? text(properties["script"])
  return {
    jobType: text(properties["taskType"]),
    retries: typeof retries === "number" && Number.isInteger(retries) && retries >= 0 ? retries : 3,
    headers: isObject(headers) ? Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])) : {},
    userTask: userTaskOf(properties),
    script: expression === null ? null : { expression, resultVariable: text(properties["resultVariable"]) ?? "" },
    decision: type === "businessRuleTask"
      ? { decisionId: text(properties["decisionId"]), resultVariable: text(properties["resultVariable"]) }
      : null,
    multiInstance: multiInstanceOf(properties["multiInstance"]),
    call: type === "callActivity"
      ? {
        processId: text(properties["processId"]),
        propagateAllChildVariables: properties["propagateAllChildVariables"] !== false,
        versionTag: text(properties["versionTag"])
      }
      : null
  }
}

const userTaskOf = (properties: Json): UserTaskDefinition => ({
  assignee: text(properties["assignee"]),
  candidateGroups: listOf(properties["candidateGroups"]),
  candidateUsers: listOf(properties["candidateUsers"]),
  formKey: text(properties["formKey"]),
  schedule: {
    priority: typeof properties["priority"] === "number"
      ? String(properties["priority"])
      : text(properties["priority"]),
    dueDate: text(properties["dueDate"]),
    followUpDate: text(properties["followUpDate"])
  }
})

const multiInstanceOf = (loop: unknown): DraftNode["multiInstance"] =>
  !isObject(loop) ? null : {
    sequential: loop["sequential"] === true,
    inputCollection: text(loop["inputCollection"]),
    inputElement: text(loop["inputElement"]),
    outputCollection: text(loop["outputCollection"]),
    outputElement: text(loop["outputElement"])
  }

// Questions about a node of the executable graph, answered by its type: what kind of element it is, and what it
// carries that several types share (a job, a message, a loop, boundary events).
import {
  ACTIVITY_TYPES,
  type ActivityNode,
  type CatchEventNode,
  type GraphNode,
  type JobDefinition,
  type MessageDefinition,
  type MultiInstanceDefinition,
  type NodeOf,
  type NodeType,
  type ProcessGraph,
  type StartEventNode,
  type SubProcessNode,
  type ThrowEventNode
} from "./ProcessGraph.ts"

const ACTIVITIES: ReadonlySet<NodeType> = new Set(ACTIVITY_TYPES)

export const isActivity = (node: GraphNode): node is ActivityNode => ACTIVITIES.has(node.type)

export const isCatchEvent = (node: GraphNode): node is CatchEventNode =>
  node.type === "startEvent" || node.type === "intermediateCatchEvent" || node.type === "boundaryEvent"

export const isThrowEvent = (node: GraphNode): node is ThrowEventNode =>
  node.type === "intermediateThrowEvent" || node.type === "endEvent"

/** An event subprocess: started by its start event, never by a sequence flow. */
export const isEventSubprocess = (node: GraphNode): node is SubProcessNode =>
  node.type === "subProcess" && node.triggeredByEvent === true

/** The job of an element done by a job worker (a task, a message throw event, an ad-hoc subprocess's worker). */
export const jobOf = (node: GraphNode): JobDefinition | null =>
  node.type === "serviceTask" || node.type === "sendTask" || node.type === "adHocSubProcess" || isThrowEvent(node)
    ? node.job
    : null

/** The message an element waits for (receive task, catch event) or sends (message throw event). */
export const messageOf = (node: GraphNode): MessageDefinition | null =>
  node.type === "receiveTask" || isCatchEvent(node) || isThrowEvent(node) ? node.message : null

export const isOfType = <T extends NodeType>(node: GraphNode, type: T): node is NodeOf<T> => node.type === type

/** The boundary events attached to a node (only activities have them). */
export const boundaryIdsOf = (node: GraphNode): ReadonlyArray<string> => isActivity(node) ? node.boundaryIds : []

/** A node's multi-instance loop, if it is a multi-instance activity. */
export const multiInstanceOf = (node: GraphNode): MultiInstanceDefinition | null =>
  isActivity(node) ? node.multiInstance : null

/** The node of an id (a graph without it is a defect: ids come from the graph or from state written by it). */
export const nodeAt = (graph: ProcessGraph, id: string): GraphNode => {
  const node = graph.nodes[id]
  if (node === undefined) throw new Error(`graph has no node ${id}`)
  return node
}

/** The node as the type the caller knows it has (a graph that disagrees is a defect). */
export const nodeOf = <T extends NodeType>(graph: ProcessGraph, id: string, type: T): NodeOf<T> => {
  const node = nodeAt(graph, id)
  if (!isOfType(node, type)) throw new Error(`graph node ${id} is a ${node.type}, not a ${type}`)
  return node
}

/** The start event of an event subprocess: the subprocess it starts, and whether that interrupts its scope. */
export const eventStartOf = (graph: ProcessGraph, id: string): NonNullable<StartEventNode["eventStart"]> => {
  const eventStart = nodeOf(graph, id, "startEvent").eventStart
  if (eventStart == null) throw new Error(`graph node ${id} starts no event subprocess`)
  return eventStart
}

/** The loop of a multi-instance activity. */
export const loopOf = (graph: ProcessGraph, id: string): MultiInstanceDefinition => {
  const loop = multiInstanceOf(nodeAt(graph, id))
  if (loop === null) throw new Error(`graph node ${id} is not multi-instance`)
  return loop
}

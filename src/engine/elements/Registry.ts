// Every executable node type and its behaviour, exhaustively: a new element is its own file plus one line here.
import type { NodeOf, NodeType } from "../../bpmn/ProcessGraph.ts"
import { adHocSubProcess } from "./containers/AdHocSubProcess.ts"
import { callActivity } from "./containers/CallActivity.ts"
import { subProcess } from "./containers/SubProcess.ts"
import { type ActivateElement, type Arrival, passThrough } from "./Element.ts"
import { endEvent } from "./events/EndEvent.ts"
import { intermediateCatchEvent } from "./events/IntermediateCatchEvent.ts"
import { intermediateThrowEvent } from "./events/IntermediateThrowEvent.ts"
import { startEvent } from "./events/StartEvent.ts"
import { eventBasedGateway } from "./gateways/EventBasedGateway.ts"
import { exclusiveGateway } from "./gateways/ExclusiveGateway.ts"
import { inclusiveGateway } from "./gateways/InclusiveGateway.ts"
import { parallelGateway } from "./gateways/ParallelGateway.ts"
import { businessRuleTask } from "./tasks/BusinessRuleTask.ts"
import { jobTask } from "./tasks/JobTask.ts"
import { scriptTask } from "./tasks/ScriptTask.ts"
import { userTask } from "./tasks/UserTask.ts"

const ELEMENTS: { readonly [T in NodeType]: ActivateElement<NodeOf<T>> } = {
  startEvent,
  endEvent,
  intermediateThrowEvent,
  intermediateCatchEvent,
  receiveTask: intermediateCatchEvent,
  boundaryEvent: passThrough,
  task: passThrough,
  manualTask: passThrough,
  serviceTask: jobTask,
  sendTask: jobTask,
  scriptTask,
  userTask,
  businessRuleTask,
  exclusiveGateway,
  parallelGateway,
  inclusiveGateway,
  eventBasedGateway,
  subProcess,
  adHocSubProcess,
  callActivity
}

/** The behaviour of the arriving node's type, given the node as that type. */
export const activateElement = <T extends NodeType>(type: T, arrival: Arrival<NodeOf<T>>): void =>
  ELEMENTS[type](arrival)

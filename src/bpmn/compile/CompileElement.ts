// Compiling one element: refused types and several event definitions first, then the compiler of its type, from a
// registry keyed by type (each family in its module: CatchEvents, ThrowEvents, Tasks, Containers, Gateways).
import { isExecutable, NOT_YET } from "../ElementKinds.ts"
import type { GraphNode, NodeOf, NodeType } from "../ProcessGraph.ts"
import { compileBoundaryEvent, compileIntermediateCatchEvent, compileStartEvent } from "./CatchEvents.ts"
import { compileAdHocSubProcess, compileCallActivity, compileSubProcess } from "./Containers.ts"
import type { ElementContext } from "./ElementContext.ts"
import { compileGateway } from "./Gateways.ts"
import {
  compileBusinessRuleTask,
  compileJobTask,
  compilePlainTask,
  compileReceiveTask,
  compileScriptTask,
  compileUserTask
} from "./Tasks.ts"
import { compileEndEvent, compileIntermediateThrowEvent } from "./ThrowEvents.ts"

// A compiler is handed the element's type too: one compiler serves the kinds of element that differ only by it
// (gateways, job tasks, plain tasks); the others ignore it.
type CompileNode<T extends NodeType> = (ctx: ElementContext, type: T) => NodeOf<T> | null

const COMPILERS: { readonly [T in NodeType]: CompileNode<T> } = {
  startEvent: compileStartEvent,
  intermediateCatchEvent: compileIntermediateCatchEvent,
  boundaryEvent: compileBoundaryEvent,
  endEvent: compileEndEvent,
  intermediateThrowEvent: compileIntermediateThrowEvent,
  serviceTask: compileJobTask,
  sendTask: compileJobTask,
  userTask: compileUserTask,
  scriptTask: compileScriptTask,
  receiveTask: compileReceiveTask,
  businessRuleTask: compileBusinessRuleTask,
  task: compilePlainTask,
  manualTask: compilePlainTask,
  subProcess: compileSubProcess,
  adHocSubProcess: compileAdHocSubProcess,
  callActivity: compileCallActivity,
  exclusiveGateway: compileGateway,
  inclusiveGateway: compileGateway,
  parallelGateway: compileGateway,
  eventBasedGateway: compileGateway
}

const compileAs = <T extends NodeType>(type: T, ctx: ElementContext): NodeOf<T> | null => COMPILERS[type](ctx, type)

/** The compiled node, or null when the element is refused (its problems reported). */
export const compileElement = (ctx: Omit<ElementContext, "type" | "kind">): GraphNode | null => {
  const { id, type } = ctx.node
  if (!isExecutable(type)) {
    ctx.report(id, NOT_YET[type] ?? `element type "${type}" is not supported`)
    return null
  }
  const definitions = ctx.node.eventDefinitions ?? []
  if (definitions.length > 1) {
    ctx.report(id, `${type} ${id} has ${definitions.length} event definitions: only one per event is supported`)
    return null
  }
  return compileAs(type, { ...ctx, type, kind: definitions[0] ?? null })
}

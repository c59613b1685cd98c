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

type CompileNode<T extends NodeType> = (ctx: ElementContext) => NodeOf<T> | null

const COMPILERS: { readonly [T in NodeType]: CompileNode<T> } = {
  startEvent: compileStartEvent,
  intermediateCatchEvent: compileIntermediateCatchEvent,
  boundaryEvent: compileBoundaryEvent,
  endEvent: compileEndEvent,
  intermediateThrowEvent: compileIntermediateThrowEvent,
  serviceTask: (ctx) => compileJobTask(ctx, "serviceTask"),
  sendTask: (ctx) => compileJobTask(ctx, "sendTask"),
  userTask: compileUserTask,
  scriptTask: compileScriptTask,
  receiveTask: compileReceiveTask,
  businessRuleTask: compileBusinessRuleTask,
  task: (ctx) => compilePlainTask(ctx, "task"),
  manualTask: (ctx) => compilePlainTask(ctx, "manualTask"),
  subProcess: compileSubProcess,
  adHocSubProcess: compileAdHocSubProcess,
  callActivity: compileCallActivity,
  exclusiveGateway: (ctx) => compileGateway(ctx, "exclusiveGateway"),
  inclusiveGateway: (ctx) => compileGateway(ctx, "inclusiveGateway"),
  parallelGateway: (ctx) => compileGateway(ctx, "parallelGateway"),
  eventBasedGateway: (ctx) => compileGateway(ctx, "eventBasedGateway")
}

const compileAs = <T extends NodeType>(type: T, ctx: ElementContext): NodeOf<T> | null => COMPILERS[type](ctx)

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

// The checks every element gets, whatever its type: its variable mappings, its sequence flows, its loop and its
// default flow. Each element's compiler runs them at its point of the order in which problems are listed.
import { MULTI_INSTANCE_TYPES } from "../ElementKinds.ts"
import { feelSyntaxProblem, isExpression } from "../Expressions.ts"
import type { Mapping, MultiInstanceDefinition } from "../ProcessGraph.ts"
import { type ElementContext, inAdHoc } from "./ElementContext.ts"

/** Input and output mappings: each needs a target, and an expression source must parse. */
export const checkMappings = (ctx: ElementContext) => {
  const check = (kind: string) => (mapping: Mapping) => {
    if (mapping.target === "") ctx.problem(`${kind} mapping from "${mapping.source}" has no target`)
    if (isExpression(mapping.source)) {
      const syntax = feelSyntaxProblem(mapping.source)
      if (syntax !== null) ctx.problem(`${kind} mapping ${mapping.target}: ${syntax}`)
    }
  }
  const inputs = ctx.node.inputs ?? []
  const outputs = ctx.node.outputs ?? []
  inputs.forEach(check("input"))
  outputs.forEach(check("output"))
  return { inputs, outputs }
}

/**
 * An element is reached by a flow and leaves by one, unless it is exempt: started by its event (boundary events,
 * event subprocesses, link catches), or leaving by a jump (link throws). Start events have no incoming flows, end
 * events no outgoing ones; inside an ad-hoc subprocess and for compensation handlers neither is needed.
 */
export const checkFlows = (
  ctx: ElementContext,
  exempt: { readonly incoming?: boolean; readonly outgoing?: boolean } = {}
) => {
  const { id, type, incoming, outgoing } = ctx
  const free = inAdHoc(ctx) || ctx.node.forCompensation === true
  if (type === "startEvent") {
    if (incoming.length > 0) ctx.problem("a start event cannot have incoming sequence flows")
  } else if (incoming.length === 0 && exempt.incoming !== true && !free) {
    ctx.problem(`${type} ${id} has no incoming sequence flow, so it can never be reached`)
  }
  if (type === "endEvent" && outgoing.length > 0) ctx.problem("an end event cannot have outgoing sequence flows")
  if (type !== "endEvent" && exempt.outgoing !== true && outgoing.length === 0 && !free) {
    ctx.problem(`${type} ${id} has no outgoing sequence flow`)
  }
}

/** Multi-instance loop characteristics (a standard loop is refused): the list, the item, the results. */
export const checkLoop = (ctx: ElementContext): MultiInstanceDefinition | null => {
  const { id, type } = ctx
  if (ctx.node.standardLoop === true) ctx.problem("standard loops are not supported: use multi-instance")
  const loop = ctx.node.multiInstance ?? null
  if (loop === null) return null
  if (!MULTI_INSTANCE_TYPES.has(type)) ctx.problem(`${type} ${id} cannot be multi-instance`)
  if (loop.inputCollection === null || loop.inputCollection === "") {
    ctx.problem("multi-instance needs an input collection (zeebe:loopCharacteristics inputCollection)")
  } else {
    const syntax = feelSyntaxProblem(loop.inputCollection)
    if (syntax !== null) ctx.problem(`input collection: ${syntax}`)
  }
  if (loop.outputElement !== null && loop.outputElement !== "") {
    const syntax = feelSyntaxProblem(loop.outputElement)
    if (syntax !== null) ctx.problem(`output element: ${syntax}`)
    if (loop.outputCollection === null || loop.outputCollection === "") {
      ctx.problem("an output element needs an output collection")
    }
  }
  return {
    sequential: loop.sequential,
    inputCollection: loop.inputCollection ?? "",
    inputElement: loop.inputElement || null,
    outputCollection: loop.outputCollection || null,
    outputElement: loop.outputElement || null
  }
}

/** The default flow must be one of the element's outgoing flows. */
export const checkDefaultFlow = (ctx: ElementContext): string | null => {
  const defaultFlow = ctx.node.defaultFlow ?? null
  if (defaultFlow !== null && !ctx.outgoing.includes(defaultFlow)) {
    ctx.problem(`default flow ${defaultFlow} is not an outgoing flow of ${ctx.id}`)
  }
  return defaultFlow
}

/** The checks an element gets after its own, in order: its loop and its default flow. */
export const checkLoopAndDefault = (ctx: ElementContext) => ({
  multiInstance: checkLoop(ctx),
  defaultFlow: checkDefaultFlow(ctx)
})

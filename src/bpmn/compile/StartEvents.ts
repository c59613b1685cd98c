// The process-level start events that start instances by themselves: a timer (a literal date or duration, counted
// from the deployment), a condition (evaluated against supplied variables), a published message.
import { feelSyntaxProblem, isExpression } from "../Expressions.ts"
import type { MessageDefinition } from "../ProcessGraph.ts"
import { literalTimerProblem } from "../Timer.ts"
import type { ElementContext } from "./ElementContext.ts"

export const registerTimerStart = (ctx: ElementContext) => {
  const { id } = ctx
  const definition = ctx.node.timer ?? null
  if (definition === null || definition.expression === null || definition.expression === "") {
    ctx.problem(`timer start event ${id} needs a timeDate, timeDuration or timeCycle`)
  } else if (isExpression(definition.expression)) {
    ctx.problem("a timer start event needs a literal date-time or duration (there are no variables yet)")
  } else if (literalTimerProblem(definition.kind, definition.expression) !== undefined) {
    ctx.problem(literalTimerProblem(definition.kind, definition.expression)!)
  } else {
    ctx.starts.timer.push({ nodeId: id, timer: { kind: definition.kind, expression: definition.expression } })
  }
}

export const registerConditionalStart = (ctx: ElementContext) => {
  const condition = ctx.node.condition ?? ""
  if (condition === "") ctx.problem(`conditional start event ${ctx.id} needs a condition`)
  else {
    const syntax = feelSyntaxProblem(condition)
    if (syntax !== null) ctx.problem(`condition: ${syntax}`)
    else ctx.starts.conditional.push({ nodeId: ctx.id, condition })
  }
}

/** A message start event: the name of the message that starts an instance. */
export const registerMessageStart = (ctx: ElementContext): MessageDefinition => {
  const name = ctx.node.message?.name ?? null
  if (name === null || name === "") ctx.problem(`message start event ${ctx.id} needs a message with a name`)
  else ctx.starts.message.push({ nodeId: ctx.id, messageName: name })
  return { name: name ?? "", correlationKey: ctx.node.message?.correlationKey ?? "" }
}

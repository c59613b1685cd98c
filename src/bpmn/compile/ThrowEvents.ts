// Compiling throw events: end events (none, terminate, error, escalation, signal, message, compensation) and
// intermediate throw events (none, escalation, signal, message, link, compensation). A message is sent by a job
// worker, as in Zeebe; what a compensation throw compensates is added by Compensation.ts.
import type { EndEventNode, IntermediateThrowEventNode, ThrowEventNode } from "../ProcessGraph.ts"
import { checkFlows, checkLoopAndDefault, checkMappings } from "./ElementChecks.ts"
import { type ElementContext, nodeBase } from "./ElementContext.ts"
import { compileLink, type EventRole, eventRoleOf, understood } from "./EventDefinitions.ts"
import { compileJob } from "./Tasks.ts"

const compileSignalThrow = (ctx: ElementContext, role: EventRole): ThrowEventNode["signalThrow"] => {
  if (!role.throwsSignal) return null
  const name = ctx.node.signal?.name ?? null
  if (name === null || name === "") ctx.problem(`signal throw event ${ctx.id} needs a signal with a name`)
  return { name: name ?? "" }
}

const checkCodes = (ctx: ElementContext, role: EventRole) => {
  if (role.throwsError && (ctx.node.errorCode ?? "") === "") {
    ctx.problem(`error end event ${ctx.id} needs an error code`)
  }
  if (role.throwsEscalation && (ctx.node.escalationCode ?? "") === "") {
    ctx.problem(`escalation throw event ${ctx.id} needs an escalation code`)
  }
}

/** What both throw events throw: a message (by a job), an escalation, a signal. */
const throws = (ctx: ElementContext, role: EventRole, signalThrow: ThrowEventNode["signalThrow"]) => ({
  job: role.throwsMessage ? compileJob(ctx, true) : null,
  message: role.throwsMessage ? { name: ctx.node.message?.name ?? "", correlationKey: "" } : null,
  ...(role.throwsEscalation ? { escalationThrow: { code: ctx.node.escalationCode ?? "" } } : {}),
  ...(signalThrow === null ? {} : { signalThrow })
})

export const compileEndEvent = (ctx: ElementContext): EndEventNode | null => {
  const role = eventRoleOf(ctx)
  const signalThrow = compileSignalThrow(ctx, role)
  if (!understood(ctx, role)) return null
  const mappings = checkMappings(ctx)
  checkCodes(ctx, role)
  checkFlows(ctx)
  const thrown = throws(ctx, role, signalThrow)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  return {
    ...nodeBase(ctx, "endEvent", mappings, defaultFlow),
    terminate: ctx.node.terminate === true,
    errorThrow: role.throwsError ? { errorCode: ctx.node.errorCode ?? "" } : null,
    ...thrown
  }
}

export const compileIntermediateThrowEvent = (ctx: ElementContext): IntermediateThrowEventNode | null => {
  const role = eventRoleOf(ctx)
  const signalThrow = compileSignalThrow(ctx, role)
  if (!understood(ctx, role)) return null
  const mappings = checkMappings(ctx)
  checkCodes(ctx, role)
  checkFlows(ctx, { outgoing: role.linkThrow })
  const link = compileLink(ctx, role)
  const thrown = throws(ctx, role, signalThrow)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  return {
    ...nodeBase(ctx, "intermediateThrowEvent", mappings, defaultFlow),
    ...thrown,
    ...(link === null ? {} : { link })
  }
}

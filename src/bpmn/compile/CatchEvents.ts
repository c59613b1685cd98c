// Compiling catch events: start events (none, message, signal, timer and conditional starts of the process; the start
// events of event subprocesses), intermediate catch events and boundary events — what each waits for, checked.
import { BOUNDARY_HOSTS } from "../ElementKinds.ts"
import { feelSyntaxProblem, isExpression } from "../Expressions.ts"
import type {
  BoundaryEventNode,
  IntermediateCatchEventNode,
  MessageDefinition,
  StartEventNode
} from "../ProcessGraph.ts"
import { literalTimerProblem, type TimerDefinition } from "../Timer.ts"
import { checkFlows, checkLoopAndDefault, checkMappings } from "./ElementChecks.ts"
import { type ElementContext, nodeBase } from "./ElementContext.ts"
import { catchable, compileLink, type EventRole, eventRoleOf, understood } from "./EventDefinitions.ts"
import { registerConditionalStart, registerMessageStart, registerTimerStart } from "./StartEvents.ts"
import { compileMessageWait } from "./Tasks.ts"

/** A conditional catch, boundary or event-subprocess start event: its FEEL condition. */
const compileCondition = (ctx: ElementContext, role: EventRole): string | null => {
  if (!role.waitsForCondition) return null
  const text = ctx.node.condition ?? ""
  if (text === "") ctx.problem(`conditional event ${ctx.id} needs a condition`)
  else {
    const syntax = feelSyntaxProblem(text)
    if (syntax !== null) ctx.problem(`condition: ${syntax}`)
  }
  return text
}

/** A timer catch event: a date, a duration, or a cycle where it may repeat (non-interrupting events). */
const compileTimer = (ctx: ElementContext, repeats: boolean): TimerDefinition | null => {
  const definition = ctx.node.timer ?? null
  if (definition === null || definition.expression === null || definition.expression === "") {
    ctx.problem(`timer catch event ${ctx.id} needs a timeDuration or timeDate`)
    return null
  }
  if (definition.kind === "cycle" && !repeats) {
    ctx.problem(
      "a timer cycle (timeCycle) repeats: it belongs on timer start events, non-interrupting boundary events and non-interrupting event subprocess starts"
    )
    return null
  }
  if (isExpression(definition.expression)) {
    const syntax = feelSyntaxProblem(definition.expression)
    if (syntax !== null) ctx.problem(`timer: ${syntax}`)
  } else if (literalTimerProblem(definition.kind, definition.expression) !== undefined) {
    ctx.problem(literalTimerProblem(definition.kind, definition.expression)!)
  }
  return { kind: definition.kind, expression: definition.expression }
}

/** What a catch event waits for (a message, a timer or a signal), and what a message or signal start starts by. */
const compileTriggers = (ctx: ElementContext, role: EventRole, repeats: boolean) => {
  let message: MessageDefinition | null = role.messageStart ? registerMessageStart(ctx) : null
  const timer = role.waitsForTimer ? compileTimer(ctx, repeats) : null
  let signal: { readonly name: string } | null = null
  if (role.waitsForSignal || role.signalStart) {
    const name = ctx.node.signal?.name ?? null
    if (name === null || name === "") {
      const what = ctx.type === "startEvent" && role.eventSubprocess === null ? "start" : "catch"
      ctx.problem(`signal ${what} event ${ctx.id} needs a signal with a name`)
    } else if (role.signalStart) ctx.starts.signal.push({ nodeId: ctx.id, signalName: name })
    signal = { name: name ?? "" }
  }
  if (role.waitsForMessage) message = compileMessageWait(ctx)
  return { message, signal, timer }
}

/** What an error or escalation catch event (boundary, event-subprocess start) catches: a code, or everything. */
const catches = (ctx: ElementContext, role: EventRole) => ({
  errorCatch: role.catchesError ? { errorCode: ctx.node.errorCode || null } : null,
  ...(role.catchesEscalation ? { escalationCatch: { code: ctx.node.escalationCode || null } } : {})
})

export const compileStartEvent = (ctx: ElementContext): StartEventNode | null => {
  const role = eventRoleOf(ctx)
  if (!catchable(ctx, role)) return null
  if (role.timerStart) registerTimerStart(ctx)
  if (role.conditionalStart) registerConditionalStart(ctx)
  const condition = compileCondition(ctx, role)
  if (!understood(ctx, role)) return null
  const mappings = checkMappings(ctx)
  const subprocess = role.eventSubprocess
  const eventStart = subprocess === null
    ? null
    : { subprocessId: subprocess.id, interrupting: ctx.node.interrupting !== false }
  if (eventStart !== null && role.catchesError && !eventStart.interrupting) {
    ctx.problem("an error start event always interrupts its scope (isInterrupting must be true)")
  }
  if (ctx.scope === null && !role.messageStart && !role.signalStart && !role.conditionalStart && !role.timerStart) {
    ctx.starts.none.push(ctx.id)
  }
  checkFlows(ctx)
  const triggers = compileTriggers(ctx, role, eventStart !== null && !eventStart.interrupting)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  return {
    ...nodeBase(ctx, "startEvent", mappings, defaultFlow),
    ...triggers,
    ...catches(ctx, role),
    ...(condition === null ? {} : { condition }),
    ...(eventStart === null ? {} : { eventStart })
  }
}

export const compileIntermediateCatchEvent = (ctx: ElementContext): IntermediateCatchEventNode | null => {
  const role = eventRoleOf(ctx)
  if (!catchable(ctx, role)) return null
  const condition = compileCondition(ctx, role)
  if (!understood(ctx, role)) return null
  const mappings = checkMappings(ctx)
  checkFlows(ctx, { incoming: role.linkCatch })
  const link = compileLink(ctx, role)
  const triggers = compileTriggers(ctx, role, false)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  return {
    ...nodeBase(ctx, "intermediateCatchEvent", mappings, defaultFlow),
    ...triggers,
    ...(condition === null ? {} : { condition }),
    ...(link === null ? {} : { link })
  }
}

/** The activity a boundary event is attached to, and whether it interrupts it. */
const compileAttachment = (ctx: ElementContext, role: EventRole): BoundaryEventNode["boundary"] => {
  const { id } = ctx
  const attachedTo = ctx.node.boundary?.attachedTo ?? null
  const host = attachedTo === null ? undefined : ctx.byId.get(attachedTo)
  if (attachedTo === null || host === undefined) ctx.problem(`boundary event ${id} is not attached to an activity`)
  else if (!BOUNDARY_HOSTS.has(host.type)) {
    ctx.problem(`boundary event ${id} is attached to ${host.type} ${attachedTo}, which cannot have boundary events`)
  }
  if (ctx.incoming.length > 0) ctx.problem("a boundary event cannot have incoming sequence flows")
  const boundary = { attachedTo: attachedTo ?? "", interrupting: ctx.node.boundary?.cancelActivity ?? true }
  if (role.catchesError && !boundary.interrupting) {
    ctx.problem("an error boundary event always interrupts its activity (cancelActivity must be true)")
  }
  if (role.catchesEscalation && host !== undefined && host.type !== "subProcess" && host.type !== "callActivity") {
    ctx.problem(`an escalation boundary event belongs on a subprocess or call activity, not on ${host.type} ${host.id}`)
  }
  return boundary
}

export const compileBoundaryEvent = (ctx: ElementContext): BoundaryEventNode | null => {
  const role = eventRoleOf(ctx)
  if (!catchable(ctx, role)) return null
  const condition = compileCondition(ctx, role)
  if (!understood(ctx, role)) return null
  const mappings = checkMappings(ctx)
  const boundary = compileAttachment(ctx, role)
  checkFlows(ctx, { incoming: true })
  const triggers = compileTriggers(ctx, role, !boundary.interrupting)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  return {
    ...nodeBase(ctx, "boundaryEvent", mappings, defaultFlow),
    ...triggers,
    boundary,
    ...catches(ctx, role),
    ...(condition === null ? {} : { condition })
  }
}

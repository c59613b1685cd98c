// What an element's event definition makes it — a message, signal, timer or condition it waits for, an error or
// escalation it catches or throws, a link — and which combinations of element and definition are executed.
import type { DraftNode } from "../Draft.ts"
import type { LinkDefinition } from "../ProcessGraph.ts"
import type { ElementContext } from "./ElementContext.ts"

export interface EventRole {
  readonly catching: boolean
  /** The event subprocess a start event starts (null: none, it is no event subprocess's start). */
  readonly eventSubprocess: DraftNode | null
  readonly waitsForMessage: boolean
  readonly waitsForSignal: boolean
  readonly waitsForTimer: boolean
  readonly waitsForCondition: boolean
  readonly catchesError: boolean
  readonly catchesEscalation: boolean
  readonly throwsError: boolean
  readonly throwsEscalation: boolean
  readonly throwsSignal: boolean
  /** Zeebe: a message throw event is done by a job worker, like a send task. */
  readonly throwsMessage: boolean
  /** Link events (BPMN 10.5.6): a throw link continues at the catch link of the same name in the same scope. */
  readonly linkThrow: boolean
  readonly linkCatch: boolean
  /** The compensation start event of a compensation event subprocess (run when its enclosing subprocess is compensated). */
  readonly compensationStart: boolean
  /** Process-level start events of a kind: each starts instances (a message start when its message is published). */
  readonly messageStart: boolean
  readonly signalStart: boolean
  readonly conditionalStart: boolean
  readonly timerStart: boolean
}

export const eventRoleOf = ({ type, scope, kind, byId }: ElementContext): EventRole => {
  const catching = type === "intermediateCatchEvent" || type === "boundaryEvent"
  const isBoundary = type === "boundaryEvent"
  const throwing = type === "endEvent" || type === "intermediateThrowEvent"
  // The start event of an event subprocess: triggered by its event while the enclosing scope runs.
  const eventSubprocess = type === "startEvent" && scope !== null && byId.get(scope)?.triggeredByEvent === true
    ? byId.get(scope)!
    : null
  const waits = catching || eventSubprocess !== null
  const processStart = type === "startEvent" && scope === null
  return {
    catching,
    eventSubprocess,
    waitsForMessage: type === "receiveTask" || (waits && kind === "message"),
    waitsForSignal: waits && kind === "signal",
    waitsForTimer: waits && kind === "timer",
    waitsForCondition: waits && kind === "conditional",
    catchesError: (isBoundary || eventSubprocess !== null) && kind === "error",
    catchesEscalation: (isBoundary || eventSubprocess !== null) && kind === "escalation",
    throwsError: type === "endEvent" && kind === "error",
    throwsEscalation: throwing && kind === "escalation",
    throwsSignal: throwing && kind === "signal",
    throwsMessage: throwing && kind === "message",
    linkThrow: type === "intermediateThrowEvent" && kind === "link",
    linkCatch: type === "intermediateCatchEvent" && kind === "link",
    compensationStart: eventSubprocess !== null && kind === "compensation",
    messageStart: processStart && kind === "message",
    signalStart: processStart && kind === "signal",
    conditionalStart: processStart && kind === "conditional",
    timerStart: processStart && kind === "timer"
  }
}

const cycleRefused = "repeating timers (timeCycle) are not supported: a timer fires once"

/** A catch event waits for something this engine executes; an event subprocess's start needs a definition. */
export const catchable = (ctx: ElementContext, role: EventRole): boolean => {
  const { type, scope, node } = ctx
  if (
    role.catching && !role.waitsForMessage && !role.waitsForSignal && !role.waitsForTimer && !role.catchesError &&
    !role.catchesEscalation && !role.waitsForCondition && !role.linkCatch
  ) {
    ctx.problem(
      node.timer?.kind === "cycle"
        ? cycleRefused
        : `${(node.eventDefinitions ?? []).join(", ") || "untyped"} ${
          type === "boundaryEvent" ? "boundary" : "intermediate catch"
        } events are not supported`
    )
    return false
  }
  if (role.eventSubprocess !== null && ctx.kind === null) {
    ctx.problem(
      `the start event of event subprocess ${scope} needs a message, timer, signal, error or conditional event definition`
    )
    return false
  }
  return true
}

/** The element's event definition is one this engine executes on an element of its type. */
export const understood = (ctx: ElementContext, role: EventRole): boolean => {
  const { type, kind } = ctx
  const known = role.waitsForMessage || role.waitsForSignal || role.waitsForTimer || role.waitsForCondition ||
    role.catchesError || role.throwsError || role.throwsSignal || role.throwsMessage || role.messageStart ||
    role.signalStart || role.conditionalStart || role.timerStart || role.linkThrow || role.linkCatch ||
    role.catchesEscalation || role.throwsEscalation || role.compensationStart ||
    (kind === "compensation" && (type === "endEvent" || type === "intermediateThrowEvent"))
  if (known || kind === null) return true
  ctx.problem(
    ctx.node.timer?.kind === "cycle"
      ? cycleRefused
      : `${kind} ${
        type === "startEvent" ? "start" : type === "endEvent" ? "end" : "intermediate"
      } events are not supported`
  )
  return false
}

/** A link event: its name, and for a throw link the one catch link of that name in its scope. */
export const compileLink = (ctx: ElementContext, role: EventRole): LinkDefinition | null => {
  if (!role.linkThrow && !role.linkCatch) return null
  const { id, scope } = ctx
  const name = ctx.node.linkName ?? ""
  if (name === "") ctx.problem(`link event ${id} needs a name`)
  const catches = ctx.index.linkCatches(scope, name)
  if (role.linkThrow && name !== "" && catches.length !== 1) {
    ctx.problem(
      catches.length === 0
        ? `no link catch event named "${name}" in the same scope as ${id}`
        : `${catches.length} link catch events are named "${name}" in the scope of ${id}`
    )
  }
  if (role.linkThrow && ctx.outgoing.length > 0) {
    ctx.problem(`link throw event ${id} cannot have outgoing sequence flows`)
  }
  if (role.linkCatch && ctx.incoming.length > 0) {
    ctx.problem(`link catch event ${id} cannot have incoming sequence flows`)
  }
  return { name, target: role.linkThrow ? catches[0]?.id ?? null : null }
}

// Compiling containers: embedded and event subprocesses (one start event; an event subprocess has no flows in or
// out), ad-hoc subprocesses (AdHocSubProcesses.ts), and call activities (the called process's key).
import { asksWorker, compileAdHoc } from "../AdHocSubProcesses.ts"
import type { DraftIndex } from "../DraftIndex.ts"
import type { AdHocSubProcessNode, CallActivityNode, SubProcessNode } from "../ProcessGraph.ts"
import { checkFlows, checkLoopAndDefault, checkMappings } from "./ElementChecks.ts"
import { activityBase, type ElementContext } from "./ElementContext.ts"
import { eventRoleOf, understood } from "./EventDefinitions.ts"
import { compileJob, openActivity } from "./Tasks.ts"

/**
 * The start events of the event subprocesses directly inside a scope (null: the process), armed while it runs. Not a
 * compensation start event: compensation starts its event subprocess once the scope has completed (Compensation.ts).
 */
export const eventStartsIn = (index: DraftIndex, scopeId: string | null) =>
  index.inScope(scopeId).filter((n) => n.triggeredByEvent === true).flatMap((subprocess) =>
    index.inScope(subprocess.id).filter((n) =>
      n.type === "startEvent" && !(n.eventDefinitions ?? []).includes("compensation")
    )
  ).map((n) => n.id)

export const compileSubProcess = (ctx: ElementContext): SubProcessNode | null => {
  const { id, index } = ctx
  if (!understood(ctx, eventRoleOf(ctx))) return null
  const mappings = checkMappings(ctx)
  const isEventSubprocess = ctx.node.triggeredByEvent === true
  if (isEventSubprocess) {
    if (ctx.incoming.length > 0 || ctx.outgoing.length > 0) {
      ctx.problem(`event subprocess ${id} cannot have incoming or outgoing sequence flows`)
    }
    if (ctx.node.multiInstance != null) ctx.problem(`event subprocess ${id} cannot be multi-instance`)
    if (index.boundaries(id).length > 0) {
      ctx.problem(`event subprocess ${id} cannot have boundary events`)
    }
  }
  checkFlows(ctx, { incoming: isEventSubprocess, outgoing: isEventSubprocess })
  const closing = checkLoopAndDefault(ctx)
  const innerStarts = index.inScope(id).filter((n) => n.type === "startEvent").map((n) => n.id)
  if (innerStarts.length !== 1) {
    ctx.problem(`subprocess ${id} has ${innerStarts.length === 0 ? "no start event" : "more than one start event"}`)
  }
  const eventStartIds = eventStartsIn(index, id)
  return {
    ...activityBase(ctx, "subProcess", mappings, closing),
    startNodeIds: innerStarts,
    ...(isEventSubprocess ? { triggeredByEvent: true } : {}),
    ...(eventStartIds.length > 0 ? { eventStartIds } : {})
  }
}

export const compileAdHocSubProcess = (ctx: ElementContext): AdHocSubProcessNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const job = asksWorker(ctx.node) ? compileJob(ctx) : null
  const closing = checkLoopAndDefault(ctx)
  const incomingCount = (nodeId: string) => ctx.index.incoming(nodeId).length
  const adHoc = compileAdHoc(ctx.node, ctx.index.inScope(ctx.id), incomingCount, ctx.report)
  return { ...activityBase(ctx, "adHocSubProcess", mappings, closing), adHoc, job }
}

export const compileCallActivity = (ctx: ElementContext): CallActivityNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const processId = ctx.node.call?.processId ?? null
  if (processId === null || processId === "") {
    ctx.problem(`call activity ${ctx.id} needs the id of the process to call (zeebe:calledElement processId)`)
  }
  return {
    ...activityBase(ctx, "callActivity", mappings, checkLoopAndDefault(ctx)),
    call: { propagateAllChildVariables: true, versionTag: null, ...ctx.node.call, processId: processId ?? "" }
  }
}

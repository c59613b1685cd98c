// Compiling gateways: an event-based gateway leads to catch events only; an exclusive or inclusive gateway that
// forks needs a condition on every outgoing flow but its default one.
import type { GatewayNode, GatewayType } from "../ProcessGraph.ts"
import { checkFlows, checkLoopAndDefault, checkMappings } from "./ElementChecks.ts"
import { type ElementContext, nodeBase } from "./ElementContext.ts"
import { eventRoleOf, understood } from "./EventDefinitions.ts"

const checkEventTargets = (ctx: ElementContext) => {
  const { id, outgoing } = ctx
  if (outgoing.length < 2) ctx.problem(`event-based gateway ${id} needs at least two outgoing flows`)
  for (const flowId of outgoing) {
    const targetId = ctx.flows[flowId]?.target
    const target = targetId === undefined ? undefined : ctx.byId.get(targetId)
    const kinds = target?.eventDefinitions ?? []
    if (
      target === undefined || target.type !== "intermediateCatchEvent" || kinds.length !== 1 ||
      !["message", "signal", "timer"].includes(kinds[0]!)
    ) {
      ctx.problem(
        `outgoing flow ${flowId} of event-based gateway ${id} must lead to a message, signal or timer catch event`
      )
    }
  }
}

const checkConditions = (ctx: ElementContext, defaultFlow: string | null) => {
  const { id, type, outgoing } = ctx
  if (outgoing.length <= 1) return
  for (const flowId of outgoing) {
    if (flowId !== defaultFlow && ctx.flows[flowId]?.condition == null) {
      ctx.problem(
        `outgoing flow ${flowId} of ${
          type === "exclusiveGateway" ? "exclusive" : "inclusive"
        } gateway ${id} has neither a condition nor is it the default flow`
      )
    }
  }
}

export const compileGateway = <T extends GatewayType>(ctx: ElementContext, type: T): GatewayNode<T> | null => {
  if (!understood(ctx, eventRoleOf(ctx))) return null
  const mappings = checkMappings(ctx)
  checkFlows(ctx)
  const { defaultFlow } = checkLoopAndDefault(ctx)
  if (type === "eventBasedGateway") checkEventTargets(ctx)
  if (type === "exclusiveGateway" || type === "inclusiveGateway") checkConditions(ctx, defaultFlow)
  return nodeBase(ctx, type, mappings, defaultFlow)
}

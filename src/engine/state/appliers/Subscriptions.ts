// What tokens wait on and armed catch events: messages, signals, timers, conditions, boundary events.
import type { Appliers } from "../Applier.ts"
import { withEntry, withoutEntry } from "../IdKeyed.ts"
import { waiting } from "../StateChanges.ts"

export const subscriptionAppliers = {
  MessageSubscriptionOpened: (state, event) =>
    waiting(state, event.tokenId, { kind: "message", subscriptionId: event.subscriptionId }),
  MessageCorrelated: (state, event) => waiting(state, event.tokenId, null),
  MessageSubscriptionClosed: (state, event) => waiting(state, event.tokenId, null),
  SignalTriggered: (state, event) => waiting(state, event.tokenId, null),
  SignalSubscriptionClosed: (state, event) => waiting(state, event.tokenId, null),
  TimerFired: (state, event) => waiting(state, event.tokenId, null),
  TimerCanceled: (state, event) => waiting(state, event.tokenId, null),
  TimerScheduled: (state, event) =>
    waiting(state, event.tokenId, { kind: "timer", subscriptionId: event.subscriptionId }),
  BoundaryOpened: (state, event) => ({
    ...state,
    boundaries: withEntry(state.boundaries ?? {}, event.subscriptionId, {
      subscriptionId: event.subscriptionId,
      hostTokenId: event.hostTokenId,
      nodeId: event.nodeId,
      kind: event.kind,
      ...(event.viaGateway === true ? { viaGateway: true } : {}),
      ...(event.eventScopeId === undefined ? {} : { eventScopeId: event.eventScopeId }),
      ...(event.kind === "timer" && event.dueAt !== null ? { dueAt: event.dueAt } : {}),
      ...(event.fired === undefined ? {} : { fired: event.fired })
    })
  }),
  BoundaryClosed: (state, event) => {
    return { ...state, boundaries: withoutEntry(state.boundaries ?? {}, event.subscriptionId) }
  },
  BoundaryTriggered: (state) => state,
  ConditionSubscribed: (state, event) => waiting(state, event.tokenId, { kind: "condition" }),
  ConditionTriggered: (state, event) => waiting(state, event.tokenId, null),
  SignalSubscriptionOpened: (state, event) =>
    waiting(state, event.tokenId, { kind: "signal", subscriptionId: event.subscriptionId })
} satisfies Partial<Appliers>

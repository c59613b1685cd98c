// Messages an instance owes after its commit, written to the outbox in the same transaction (actors/OutboxRelay.ts
// delivers them): start or cancel a called instance, evaluate a decision (the instance asks itself), tell the caller
// of an uncaught error or escalation, broadcast a thrown signal.
import type { Projections } from "./Projection.ts"

export const outboxProjections: Projections = {
  ChildInstanceRequested: (ctx, event) =>
    ctx.outbox(event.childInstanceId, {
      _tag: "START_CHILD",
      processKey: event.processKey,
      ...(event.versionTag === undefined ? {} : { versionTag: event.versionTag }),
      ...(event.binding === undefined ? {} : { binding: event.binding }),
      parentNodeId: event.nodeId,
      variables: event.variables
    }),
  ChildInstanceCancelRequested: (ctx, event) => ctx.outbox(event.childInstanceId, { _tag: "CANCEL_CHILD" }),
  DecisionRequested: (ctx, event) =>
    ctx.outbox(ctx.instanceId, {
      _tag: "EVALUATE_DECISION",
      evaluationId: event.evaluationId,
      decisionId: event.decisionId,
      variables: event.variables,
      ...(event.versionTag == null ? {} : { versionTag: event.versionTag }),
      ...(event.binding === undefined ? {} : { binding: event.binding })
    }),
  ErrorPropagated: (ctx, event) =>
    ctx.parentInstanceId === null
      ? undefined
      : ctx.outbox(ctx.parentInstanceId, {
        _tag: "CHILD_ERROR",
        errorCode: event.errorCode,
        errorMessage: event.errorMessage,
        variables: event.variables
      }),
  EscalationPropagated: (ctx, event) =>
    ctx.parentInstanceId === null
      ? undefined
      : ctx.outbox(ctx.parentInstanceId, {
        _tag: "CHILD_ESCALATION",
        escalationCode: event.escalationCode
      }),
  SignalThrown: (ctx, event) =>
    ctx.outbox(ctx.instanceId, {
      _tag: "BROADCAST_SIGNAL",
      broadcastId: `${event.tokenId}:${event.nodeId}`,
      signalName: event.signalName,
      variables: event.variables
    })
}

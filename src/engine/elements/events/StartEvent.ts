// None start events: entering a scope (the process or a subprocess) arms the start events of its event subprocesses.
import type { ActivateElement } from "../Element.ts"

export const startEvent: ActivateElement = ({ run, token, node, visible }) => {
  const eventStarts = run.eventStartsOf(token.scopeId)
  if (
    eventStarts.length > 0 &&
    !run.openBoundaries({ id: run.hostIdOf(token.scopeId), scopeId: token.scopeId }, token, eventStarts, {
      eventScopeId: token.scopeId
    })
  ) return
  return run.leave(token, node, run.takeableFlows(token, node, visible))
}

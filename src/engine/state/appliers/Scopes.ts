// Scopes: embedded subprocesses, and the multi-instance body with its iterations.
import type { Appliers } from "../Applier.ts"
import type { InstanceEvent } from "../Events.ts"
import { withEntry, withoutEntry } from "../IdKeyed.ts"
import type { InstanceState, Scope } from "../State.ts"
import { waiting, withoutToken, withToken } from "../StateChanges.ts"

/** A subprocess or a multi-instance body opened: its scope, and the token at its node waiting for it. */
const opened = (
  state: InstanceState,
  event: Extract<InstanceEvent, { readonly type: "ScopeOpened" | "MultiInstanceStarted" }>,
  kind: "subprocess" | "multiInstance",
  extra: Pick<Scope, "loop">
): InstanceState => ({
  ...waiting(state, event.tokenId, { kind, scopeId: event.scopeId }),
  scopes: withEntry(state.scopes, event.scopeId, {
    id: event.scopeId,
    parentId: event.parentScopeId,
    nodeId: event.nodeId,
    tokenId: event.tokenId,
    variables: event.variables,
    ...extra
  })
})

export const scopeAppliers = {
  ScopeOpened: (state, event) => opened(state, event, "subprocess", {}),
  AdHocCompletionFulfilled: (state, event) => {
    const scope = state.scopes[event.scopeId]
    return scope === undefined
      ? state
      : { ...state, scopes: withEntry(state.scopes, event.scopeId, { ...scope, adHocFulfilled: true }) }
  },
  ScopeClosed: (state, event) => {
    const scopes = withoutEntry(state.scopes, event.scopeId)
    const scope = state.scopes[event.scopeId]
    // Compensation records still in the scope go with it (a completed subprocess moved its own out first).
    const kept = state.compensable?.some((c) => c.scopeId === event.scopeId)
      ? { compensable: state.compensable.filter((c) => c.scopeId !== event.scopeId) }
      : {}
    return scope === undefined
      ? { ...state, scopes, ...kept }
      : { ...waiting({ ...state, scopes, ...kept }, scope.tokenId, null) }
  },
  MultiInstanceStarted: (state, event) =>
    opened(state, event, "multiInstance", {
      loop: { items: event.items, sequential: event.sequential, nextIndex: 0, completed: 0 }
    }),
  IterationStarted: (state, event) => {
    const body = state.scopes[event.bodyScopeId]!
    return withToken({
      ...state,
      scopes: withEntry(
        withEntry(state.scopes, body.id, { ...body, loop: { ...body.loop!, nextIndex: event.index + 1 } }),
        event.scopeId,
        {
          id: event.scopeId,
          parentId: body.id,
          nodeId: event.nodeId,
          tokenId: event.tokenId,
          variables: event.variables
        }
      )
    }, {
      id: event.tokenId,
      nodeId: event.nodeId,
      scopeId: event.scopeId,
      viaFlow: null,
      wait: null,
      loop: { bodyScopeId: body.id, index: event.index }
    })
  },
  IterationCompleted: (state, event) => {
    const body = state.scopes[event.bodyScopeId]!
    const scopes = withoutEntry(state.scopes, event.scopeId)
    return withoutToken({
      ...state,
      scopes: withEntry(scopes, body.id, { ...body, loop: { ...body.loop!, completed: body.loop!.completed + 1 } })
    }, event.tokenId)
  }
} satisfies Partial<Appliers>

// Scopes: embedded subprocesses, and the multi-instance body with its iterations.
import type { Appliers } from "../Apply.ts"
import { waiting, withoutToken, withToken } from "../StateChanges.ts"

export const scopeAppliers = {
  ScopeOpened: (state, event) => ({
    ...waiting(state, event.tokenId, { kind: "subprocess", scopeId: event.scopeId }),
    scopes: {
      ...state.scopes,
      [event.scopeId]: {
        id: event.scopeId,
        parentId: event.parentScopeId,
        nodeId: event.nodeId,
        tokenId: event.tokenId,
        variables: event.variables
      }
    }
  }),
  AdHocCompletionFulfilled: (state, event) => {
    const scope = state.scopes[event.scopeId]
    return scope === undefined
      ? state
      : { ...state, scopes: { ...state.scopes, [event.scopeId]: { ...scope, adHocFulfilled: true } } }
  },
  ScopeClosed: (state, event) => {
    const { [event.scopeId]: _, ...scopes } = state.scopes
    const scope = state.scopes[event.scopeId]
    // Compensation records still in the scope go with it (a completed subprocess moved its own out first).
    const kept = state.compensable?.some((c) => c.scopeId === event.scopeId)
      ? { compensable: state.compensable.filter((c) => c.scopeId !== event.scopeId) }
      : {}
    return scope === undefined
      ? { ...state, scopes, ...kept }
      : { ...waiting({ ...state, scopes, ...kept }, scope.tokenId, null) }
  },
  MultiInstanceStarted: (state, event) => ({
    ...waiting(state, event.tokenId, { kind: "multiInstance", scopeId: event.scopeId }),
    scopes: {
      ...state.scopes,
      [event.scopeId]: {
        id: event.scopeId,
        parentId: event.parentScopeId,
        nodeId: event.nodeId,
        tokenId: event.tokenId,
        variables: event.variables,
        loop: { items: event.items, sequential: event.sequential, nextIndex: 0, completed: 0 }
      }
    }
  }),
  IterationStarted: (state, event) => {
    const body = state.scopes[event.bodyScopeId]!
    return withToken({
      ...state,
      scopes: {
        ...state.scopes,
        [body.id]: { ...body, loop: { ...body.loop!, nextIndex: event.index + 1 } },
        [event.scopeId]: {
          id: event.scopeId,
          parentId: body.id,
          nodeId: event.nodeId,
          tokenId: event.tokenId,
          variables: event.variables
        }
      }
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
    const { [event.scopeId]: _, ...scopes } = state.scopes
    return withoutToken({
      ...state,
      scopes: { ...scopes, [body.id]: { ...body, loop: { ...body.loop!, completed: body.loop!.completed + 1 } } }
    }, event.tokenId)
  }
} satisfies Partial<Appliers>

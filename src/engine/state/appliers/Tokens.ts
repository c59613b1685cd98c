// Tokens: where they are (activated, moved, migrated, joined) and when they leave.
import type { Appliers } from "../Applier.ts"
import { waiting, withoutToken, withToken } from "../StateChanges.ts"

export const tokenAppliers = {
  ElementActivated: (state, event) =>
    withToken(state, {
      id: event.tokenId,
      nodeId: event.nodeId,
      scopeId: event.scopeId,
      viaFlow: event.viaFlow,
      wait: null,
      ...(event.variables === undefined ? {} : { locals: event.variables })
    }),
  ElementCompleted: (state, event) => withoutToken(state, event.tokenId),
  ExecutionListenersDone: (state, event) => {
    const token = state.tokens[event.tokenId]
    return token === undefined
      ? state
      : withToken(state, { ...token, listener: undefined, listenersDone: event.phase })
  },
  ElementTerminated: (state, event) => withoutToken(state, event.tokenId),
  FlowTaken: (state) => state,
  JoinArrived: (state, event) => waiting(state, event.tokenId, { kind: "join" }),
  TokenMoved: (state) => state,
  InstanceMigrated: (state) => state,
  TokenMigrated: (state, event) => {
    const token = state.tokens[event.tokenId]
    if (token === undefined) return state
    const scopes = Object.fromEntries(
      Object.entries(state.scopes).map((
        [id, scope]
      ) => [id, scope.tokenId === token.id ? { ...scope, nodeId: event.nodeId } : scope])
    )
    return withToken({ ...state, scopes }, { ...token, nodeId: event.nodeId })
  }
} satisfies Partial<Appliers>

// Compensation's state: the completed activities that can still be compensated, and the handlers a throw event waits
// for. A compensated activity leaves the list (it is undone once); when an embedded subprocess completes, the records
// of its scope move to the enclosing one (with a compensation event subprocess: kept inside one record of the
// subprocess, restored into the event subprocess's scope when it runs); when a scope ends otherwise (terminated), its records go (ScopeClosed, in
// the scopes' appliers); over MAX_COMPENSABLE, the oldest is dropped.
import type { Appliers } from "../Applier.ts"
import type { Compensable } from "../State.ts"
import { waiting } from "../StateChanges.ts"

/** The list less the given records, matched by value (a replayed event holds copies, not the same objects). */
const without = (list: ReadonlyArray<Compensable>, removed: ReadonlyArray<Compensable>): Array<Compensable> => {
  const left = removed.map((c) => JSON.stringify(c))
  return list.filter((c) => {
    const at = left.indexOf(JSON.stringify(c))
    if (at === -1) return true
    left.splice(at, 1)
    return false
  })
}

/** The subprocesses a record completed within, outermost last (a multi-instance activity's own records: not itself). */
const withinLifted = (c: Compensable, nodeId: string): ReadonlyArray<string> | undefined =>
  c.nodeId === nodeId || c.within?.at(-1) === nodeId ? c.within : [...(c.within ?? []), nodeId]

export const compensationAppliers = {
  CompensableCompleted: (state, event) => ({
    ...state,
    compensable: [...(state.compensable ?? []), {
      nodeId: event.nodeId,
      scopeId: event.scopeId,
      variables: event.variables
    }]
  }),
  CompensableScopeCompleted: (state, event) => {
    const list = state.compensable ?? []
    if (event.subprocessRecord === undefined) {
      return {
        ...state,
        compensable: list.map((c) =>
          c.scopeId === event.scopeId
            ? { ...c, scopeId: event.parentScopeId, within: withinLifted(c, event.nodeId) }
            : c
        )
      }
    }
    const inner = list.filter((c) => c.scopeId === event.scopeId)
    const record = { nodeId: event.nodeId, scopeId: event.parentScopeId, variables: event.subprocessRecord.variables }
    return {
      ...state,
      compensable: [
        ...list.filter((c) => c.scopeId !== event.scopeId),
        inner.length === 0 ? record : { ...record, inner }
      ]
    }
  },
  CompensableRestored: (state, event) => ({
    ...state,
    compensable: [...(state.compensable ?? []), ...event.records.map((c) => ({ ...c, scopeId: event.scopeId }))]
  }),
  CompensableDropped: (state) => ({ ...state, compensable: (state.compensable ?? []).slice(1) }),
  CompensationStarted: (state, event) => ({
    ...waiting(state, event.tokenId, { kind: "compensation", pending: event.compensating.slice(1) }),
    compensable: without(state.compensable ?? [], event.compensating)
  }),
  CompensationContinued: (state, event) => {
    const wait = state.tokens[event.tokenId]?.wait
    return wait?.kind !== "compensation"
      ? state
      : wait.pending.length === 0
      ? waiting(state, event.tokenId, null)
      : waiting(state, event.tokenId, { kind: "compensation", pending: wait.pending.slice(1) })
  }
} satisfies Partial<Appliers>

// An instance's state and the events that change it. `apply` is the ONE mutator: the live path folds each event it
// emits through it, and replaying the history through it rebuilds the same state.
import { apply } from "./state/Apply.ts"
import type { InstanceEvent } from "./state/Events.ts"
import { changingInPlace } from "./state/IdKeyed.ts"
import { initialState, type InstanceState, type Scope } from "./state/State.ts"

export { apply } from "./state/Apply.ts"
export type { InstanceEvent } from "./state/Events.ts"
export {
  type Boundary,
  type BoundaryKind,
  type Compensable,
  type Incident,
  initialState,
  type InstanceState,
  type ListenerProgress,
  MAX_COMPENSABLE,
  type Scope,
  type Token,
  type Wait
} from "./state/State.ts"

/** The state the events fold into (only the end state is kept, so records change in place after their first copy). */
export const replay = (instanceId: string, events: ReadonlyArray<InstanceEvent>): InstanceState =>
  changingInPlace(() => events.reduce(apply, initialState(instanceId)))

/** The variables visible in a scope: the root's, overridden by each scope on the way down to it. */
export const visibleVariables = (state: InstanceState, scopeId: string): Record<string, unknown> => {
  const chain: Array<Scope> = []
  for (let scope = state.scopes[scopeId]; scope !== undefined; scope = state.scopes[scope.parentId]) {
    chain.unshift(scope)
  }
  return Object.assign({}, state.variables, ...chain.map((scope) => scope.variables))
}

/** Each visible variable with the scope it was found in (the innermost one that has it). */
export const variablesWithScope = (
  state: InstanceState,
  scopeId: string
): Array<{ name: string; value: unknown; scopeId: string }> => {
  const found = new Map<string, { name: string; value: unknown; scopeId: string }>()
  for (let scope = state.scopes[scopeId]; scope !== undefined; scope = state.scopes[scope.parentId]) {
    for (const [name, value] of Object.entries(scope.variables)) {
      if (!found.has(name)) found.set(name, { name, value, scopeId: scope.id })
    }
  }
  for (const [name, value] of Object.entries(state.variables)) {
    if (!found.has(name)) found.set(name, { name, value, scopeId: state.instanceId })
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name))
}

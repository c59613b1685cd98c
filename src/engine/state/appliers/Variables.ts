// Variables: the instance's and each scope's (every change counts a version, for optimistic locking), and a node's own.
import type { Appliers } from "../Applier.ts"

export const variableAppliers = {
  VariablesSet: (state, event) => {
    const scope = state.scopes[event.scopeId]
    return scope === undefined
      ? {
        ...state,
        variables: { ...state.variables, ...event.variables },
        variablesVersion: state.variablesVersion + 1
      }
      : {
        ...state,
        scopes: { ...state.scopes, [scope.id]: { ...scope, variables: { ...scope.variables, ...event.variables } } },
        variablesVersion: state.variablesVersion + 1
      }
  },
  VariableRemoved: (state, event) => {
    const scope = state.scopes[event.scopeId]
    if (scope === undefined) {
      const { [event.name]: _, ...variables } = state.variables
      return { ...state, variables, variablesVersion: state.variablesVersion + 1 }
    }
    const { [event.name]: _, ...variables } = scope.variables
    return {
      ...state,
      scopes: { ...state.scopes, [scope.id]: { ...scope, variables } },
      variablesVersion: state.variablesVersion + 1
    }
  },
  NodeVariablesSet: (state, event) => ({
    ...state,
    nodeVariables: {
      ...state.nodeVariables,
      [event.nodeId]: { ...state.nodeVariables[event.nodeId], ...event.variables }
    }
  })
} satisfies Partial<Appliers>

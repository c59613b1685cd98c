// Variables set from outside: the instance's (with optimistic locking), one scope's, a node's own; a variable removed.
import { Rejected } from "../Rejected.ts"
import type { CommandHandler } from "./Handler.ts"

export const setVariables: CommandHandler<"SetVariables"> = (run, command) => {
  // Optimistic locking: a caller that read version N may only write over version N.
  if (command.expectedVersion !== undefined && command.expectedVersion !== run.state.variablesVersion) {
    throw new Rejected(
      "CONFLICT",
      `stale expectedVersion ${command.expectedVersion}: the variables are at version ${run.state.variablesVersion}`
    )
  }
  return run.emit({ type: "VariablesSet", nodeId: null, scopeId: run.state.instanceId, variables: command.variables })
}

export const setScopeVariable: CommandHandler<"SetScopeVariable"> = (run, command) => {
  if (command.scopeId !== run.state.instanceId && run.state.scopes[command.scopeId] === undefined) {
    throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
  }
  return run.emit({
    type: "VariablesSet",
    nodeId: null,
    scopeId: command.scopeId,
    variables: { [command.name]: command.value }
  })
}

export const removeScopeVariable: CommandHandler<"RemoveScopeVariable"> = (run, command) => {
  const scope = run.state.scopes[command.scopeId]
  const local = command.scopeId === run.state.instanceId ? run.state.variables : scope?.variables
  if (local === undefined) throw new Rejected("NOT_FOUND", `scope ${command.scopeId} not found`)
  if (!(command.name in local)) {
    throw new Rejected("NOT_FOUND", `variable ${command.name} not found in scope ${command.scopeId}`)
  }
  return run.emit({ type: "VariableRemoved", scopeId: command.scopeId, name: command.name })
}

export const setNodeVariables: CommandHandler<"SetNodeVariables"> = (run, command) => {
  if (run.graph.nodes[command.nodeId] === undefined) throw new Rejected("NOT_FOUND", `node ${command.nodeId} not found`)
  return run.emit({ type: "NodeVariablesSet", nodeId: command.nodeId, variables: command.variables })
}

// The variables a job or user task records when it is created: only those of its own activation — a multi-instance
// iteration's element and loopCounter (or an ad-hoc subprocess's own scope), the activation's locals, its input
// mappings' results. Not everything it sees: n jobs of a parallel multi-instance over a large collection would each
// carry the collection, n² values written in one command. What a worker or a person gets is worked out from the
// instance's state when they ask (JobVariables.ts).
import type { InstanceState, Token } from "./InstanceState.ts"

/** `seen`: what the element sees, its input mappings' results included (their values are taken from it). */
export const ownVariables = (
  state: InstanceState,
  token: Token,
  node: { readonly inputs?: ReadonlyArray<{ readonly target: string }> | undefined },
  seen: Readonly<Record<string, unknown>>
): Record<string, unknown> => {
  const scope = state.scopes[token.scopeId]
  const own: Record<string, unknown> = { ...(scope?.nodeId === token.nodeId ? scope.variables : {}), ...token.locals }
  for (const mapping of node.inputs ?? []) {
    if (Object.hasOwn(seen, mapping.target)) own[mapping.target] = seen[mapping.target]
  }
  return own
}

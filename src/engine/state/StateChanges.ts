// Small changes every applier makes: a token added or replaced, a token removed, what a token waits on.
import { withEntry, withoutEntry } from "./IdKeyed.ts"
import type { InstanceState, Token, Wait } from "./State.ts"

export const withToken = (state: InstanceState, token: Token): InstanceState => ({
  ...state,
  tokens: withEntry(state.tokens, token.id, token)
})
export const withoutToken = (state: InstanceState, tokenId: string): InstanceState => ({
  ...state,
  tokens: withoutEntry(state.tokens, tokenId)
})
export const waiting = (state: InstanceState, tokenId: string, wait: Wait | null): InstanceState => {
  const token = state.tokens[tokenId]
  return token === undefined ? state : withToken(state, { ...token, wait })
}

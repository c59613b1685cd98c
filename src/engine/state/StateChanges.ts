// Small changes every applier makes: a token added or replaced, a token removed, what a token waits on.
import type { InstanceState, Token, Wait } from "../InstanceState.ts"

export const withToken = (state: InstanceState, token: Token): InstanceState => ({
  ...state,
  tokens: { ...state.tokens, [token.id]: token }
})
export const withoutToken = (state: InstanceState, tokenId: string): InstanceState => {
  const { [tokenId]: _, ...tokens } = state.tokens
  return { ...state, tokens }
}
export const waiting = (state: InstanceState, tokenId: string, wait: Wait | null): InstanceState => {
  const token = state.tokens[tokenId]
  return token === undefined ? state : withToken(state, { ...token, wait })
}

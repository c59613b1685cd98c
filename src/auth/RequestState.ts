// The request being served, as the outer (router-level) middleware shares it with everything inside: its correlation
// id (echoed from X-Correlation-Id or generated; the failure envelope names it), and what the middleware needs to
// learn back — who called (set by the authentication middleware) and which resource the call was about (set by
// handlers that create one), so the audit record can name them. One fresh object per request; one service, so a
// request adds one entry to the effect context, not several.
import { Context, Effect } from "effect"
import type { Principal } from "./Principal.ts"

export interface RequestStateShape {
  readonly correlationId: string
  principal: Principal | undefined
  /** Tenant of a call without a token that still acts in a tenant (accepting an invitation). */
  tenantId: string | undefined
  actor: string | undefined
  resourceKind: string | undefined
  resourceId: string | undefined
  /** The status the endpoint answers on success (set by the authentication middleware, which knows the endpoint). */
  successStatus: number | undefined
}

export const RequestState = Context.Reference<RequestStateShape | undefined>("flowcore/RequestState", {
  defaultValue: () => undefined
})

export const newRequestState = (correlationId: string): RequestStateShape => ({
  correlationId,
  principal: undefined,
  tenantId: undefined,
  actor: undefined,
  resourceKind: undefined,
  resourceId: undefined,
  successStatus: undefined
})

/** Names the resource a call created or changed, for its audit record. */
export const recordResource = (kind: string, id: string): Effect.Effect<void> =>
  Effect.map(RequestState, (state) => {
    if (state !== undefined) {
      state.resourceKind = kind
      state.resourceId = id
    }
  })

/** For public calls that still act in a tenant (accepting an invitation): whom to record. */
export const recordTenantActor = (tenantId: string, actor: string): Effect.Effect<void> =>
  Effect.map(RequestState, (state) => {
    if (state !== undefined) {
      state.tenantId = tenantId
      state.actor = actor
    }
  })

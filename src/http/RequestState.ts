// What the outer (router-level) middleware needs to learn from inside a request: who called (set by the
// authentication middleware) and which resource the call was about (set by handlers that create one), so the audit
// record can name them. One fresh object per request.
import { Context, Effect } from "effect"
import type { Principal } from "../auth/Principal.ts"

export interface RequestStateShape {
  principal: Principal | undefined
  /** Tenant of a call without a token that still acts in a tenant (accepting an invitation). */
  tenantId: string | undefined
  actor: string | undefined
  resourceKind: string | undefined
  resourceId: string | undefined
}

export const RequestState = Context.Reference<RequestStateShape | undefined>("flowcore/RequestState", {
  defaultValue: () => undefined
})

export const newRequestState = (): RequestStateShape => ({
  principal: undefined,
  tenantId: undefined,
  actor: undefined,
  resourceKind: undefined,
  resourceId: undefined
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

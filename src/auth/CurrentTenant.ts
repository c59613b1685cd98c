// The tenant of the request being served, provided by the authentication middleware beside the caller's Principal.
// Data access that reads the tenant from here (`Effect<A, E, CurrentTenant>`) cannot be handed another tenant's id by
// a handler: the type says it runs inside an authenticated request, or wherever a tenant was provided on purpose.
import { Context, Effect } from "effect"

export class CurrentTenant extends Context.Service<CurrentTenant, string>()("flowcore/CurrentTenant") {}

/** Runs tenant-scoped data access for the given tenant (background work that read it from a row). */
export const inTenant =
  (tenantId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, CurrentTenant>> =>
    Effect.provideService(effect, CurrentTenant, tenantId)

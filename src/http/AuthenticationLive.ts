// Verifies the bearer token, makes sure its tenant exists, applies the role the endpoint declares (Access.ts) and
// provides the caller's Principal and tenant (CurrentTenant) to the handler. 401 for a missing, invalid or expired token; 403 for a valid token without the
// role.
import { Effect, Layer, Redacted } from "effect"
import { CurrentTenant } from "../auth/CurrentTenant.ts"
import { CurrentPrincipal, hasAnyRole } from "../auth/Principal.ts"
import { RequestState } from "../auth/RequestState.ts"
import { Forbidden, Unauthorized } from "../schema/ApiErrors.ts"
import { Tenants } from "../services/identity/Tenants.ts"
import { TokenService } from "../services/identity/TokenService.ts"
import { accessOf, describeAccess } from "./Access.ts"
import { Authentication } from "./Middleware.ts"
import { successStatusOf } from "./RouteTable.ts"

const unauthorized = (message: string) =>
  new Unauthorized({ message, errors: [{ field: "Authorization", message, code: "UNAUTHORIZED" }] })

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const tokens = yield* TokenService
    const tenants = yield* Tenants
    return {
      bearer: Effect.fnUntraced(function*(httpEffect, { credential, endpoint, group }) {
        const token = Redacted.value(credential).trim()
        if (token === "") return yield* unauthorized("missing bearer token: send Authorization: Bearer <token>")
        const principal = yield* tokens.verify(token).pipe(
          Effect.mapError((error) => unauthorized(`invalid token: ${error.message}`))
        )
        yield* tenants.ensure(principal.tenantId)
        yield* tenants.seen(principal.tenantId, principal.sub)
        const state = yield* RequestState
        if (state !== undefined) {
          state.principal = principal
          state.successStatus = successStatusOf(group.identifier, endpoint.identifier)
        }
        const access = accessOf(endpoint)
        if (access === undefined) {
          return yield* Effect.die(new Error(`${group.identifier}.${endpoint.identifier} declares no required role`))
        }
        if (access.kind === "roles" && !hasAnyRole(principal, access.roles)) {
          return yield* new Forbidden({
            message: `${describeAccess(access)} The caller has ${
              principal.roles.length === 0 ? "no role" : principal.roles.join(", ")
            }.`,
            errors: [{ field: "roles", message: `requires ${access.roles.join(" or ")}`, code: "MISSING_ROLE" }]
          })
        }
        return yield* httpEffect.pipe(
          Effect.provideService(CurrentPrincipal, principal),
          Effect.provideService(CurrentTenant, principal.tenantId)
        )
      })
    }
  })
)

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { ResourceAuthorizations } from "../../services/ResourceAuthorizations.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const AuthorizationsHandlers = HttpApiBuilder.group(Api, "authorizations", (handlers) =>
  Effect.gen(function*() {
    const authorizations = yield* ResourceAuthorizations
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          authorizations.list(principal.tenantId, query, pageRequest(query))))
      .handle("grant", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const granted = yield* authorizations.grant(principal.tenantId, payload)
          yield* recordResource("authorizations", granted.id)
          return granted
        }))
      .handle("revoke", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          authorizations.revoke(principal.tenantId, params.id)))
  }))

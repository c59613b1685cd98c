import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { ResourceAuthorizations } from "../../services/identity/ResourceAuthorizations.ts"
import { Api } from "../Api.ts"

export const AuthorizationsHandlers = HttpApiBuilder.group(
  Api,
  "authorizations",
  Effect.fnUntraced(function*(handlers) {
    const authorizations = yield* ResourceAuthorizations
    return handlers
      .handle("list", ({ query }) => authorizations.list(query, pageRequest(query)))
      .handle(
        "grant",
        Effect.fnUntraced(function*({ payload }) {
          const granted = yield* authorizations.grant(payload)
          yield* recordResource("authorizations", granted.id)
          return granted
        })
      )
      .handle("revoke", ({ params }) => authorizations.revoke(params.id))
  })
)

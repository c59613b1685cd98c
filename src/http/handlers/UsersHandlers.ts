import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Users } from "../../services/identity/Users.ts"
import { Api } from "../Api.ts"

export const UsersHandlers = HttpApiBuilder.group(
  Api,
  "users",
  Effect.fnUntraced(function*(handlers) {
    const users = yield* Users
    return handlers
      .handle("list", ({ query }) => users.list(pageRequest(query)))
      .handle(
        "create",
        Effect.fnUntraced(function*({ payload }) {
          const user = yield* users.create(payload)
          yield* recordResource("users", user.id)
          return user
        })
      )
  })
)

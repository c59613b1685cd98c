import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { pageRequest } from "../../schema/Common.ts"
import { Users } from "../../services/Users.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

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

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Groups } from "../../services/identity/Groups.ts"
import { Api } from "../Api.ts"

export const GroupsHandlers = HttpApiBuilder.group(
  Api,
  "groups",
  Effect.fnUntraced(function*(handlers) {
    const groups = yield* Groups
    return handlers
      .handle("list", ({ query }) => groups.list(pageRequest(query)))
      .handle(
        "create",
        Effect.fnUntraced(function*({ payload }) {
          const group = yield* groups.create(payload)
          yield* recordResource("groups", group.id)
          return group
        })
      )
      .handle("listMembers", ({ params, query }) => groups.members(params.id, pageRequest(query)))
      .handle("addMember", ({ params, payload }) => groups.addMember(params.id, payload.userId))
      .handle("removeMember", ({ params }) => groups.removeMember(params.id, params.userId))
  })
)

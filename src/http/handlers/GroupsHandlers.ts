import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Groups } from "../../services/Groups.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const GroupsHandlers = HttpApiBuilder.group(Api, "groups", (handlers) =>
  Effect.gen(function*() {
    const groups = yield* Groups
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          groups.list(principal.tenantId, pageRequest(query))))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const group = yield* groups.create(principal.tenantId, payload)
          yield* recordResource("groups", group.id)
          return group
        }))
      .handle("listMembers", ({ params, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          groups.members(principal.tenantId, params.id, pageRequest(query))))
      .handle("addMember", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          groups.addMember(principal.tenantId, params.id, payload.userId)))
      .handle("removeMember", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          groups.removeMember(principal.tenantId, params.id, params.userId)))
  }))

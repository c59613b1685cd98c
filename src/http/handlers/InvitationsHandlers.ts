import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource, recordTenantActor } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Invitations } from "../../services/identity/Invitations.ts"
import { Api } from "../Api.ts"

export const InvitationsHandlers = HttpApiBuilder.group(
  Api,
  "invitations",
  Effect.fnUntraced(function*(handlers) {
    const invitations = yield* Invitations
    return handlers
      .handle("list", ({ query }) => invitations.listOutstanding(pageRequest(query)))
      .handle(
        "create",
        Effect.fnUntraced(function*({ payload }) {
          const invitation = yield* invitations.create(payload)
          yield* recordResource("invitations", invitation.id)
          return invitation
        })
      )
      .handle("revoke", ({ params }) => invitations.revoke(params.id))
  })
)

export const InvitationAcceptanceHandlers = HttpApiBuilder.group(
  Api,
  "invitationAcceptance",
  Effect.fnUntraced(function*(handlers) {
    const invitations = yield* Invitations
    return handlers.handle(
      "accept",
      Effect.fnUntraced(function*({ payload }) {
        const accepted = yield* invitations.accept(payload)
        // Accepting is not authenticated: the tenant is the invitation's, named here for the request's log line.
        yield* recordTenantActor(accepted.tenantId, accepted.user.username)
        yield* recordResource("invitations", accepted.invitation.id)
        return { invitation: accepted.invitation, user: accepted.user }
      })
    )
  })
)

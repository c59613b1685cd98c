import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConflictHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { PageQueryFields } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import {
  AcceptedInvitation,
  AcceptInvitation,
  CreatedInvitation,
  CreateInvitation,
  Invitation
} from "../../schema/Invitations.ts"
import { InvitationId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"

export class InvitationsApi extends HttpApiGroup.make("invitations")
  .add(
    pagedList(
      PageQueryFields,
      Invitation,
      Requires.admin,
      "List outstanding (pending, unexpired) invitations, newest first"
    ),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateInvitation,
      success: Created(CreatedInvitation, "Invitation created"),
      error: ConflictHttp
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Invite an email address with roles; the answer carries the invitation token" })
    ),
    HttpApiEndpoint.delete("revoke", "/:id", {
      params: { id: InvitationId },
      success: Ok(Invitation, "Invitation revoked"),
      error: [NotFoundHttp, ConflictHttp]
    }).annotateMerge(Requires.admin).annotateMerge(OpenApi.annotations({ summary: "Revoke a pending invitation" }))
  )
  .pipe(authenticatedGroup("/api/v1/invitations", "Invitations"))
{}

/** Accepting needs no bearer token: the invitation token is the credential. */
export class InvitationAcceptanceApi extends HttpApiGroup.make("invitationAcceptance")
  .add(
    // Public: the invitation token is the credential of someone who has no account yet.
    HttpApiEndpoint.post("accept", "/accept", {
      payload: AcceptInvitation,
      success: Created(AcceptedInvitation, "Invitation accepted"),
      error: [NotFoundHttp, ConflictHttp]
    }).annotateMerge(Requires.noToken).annotateMerge(OpenApi.annotations({
      summary:
        "Accept an invitation with its token, choosing a username and password; creates the user in the inviting tenant"
    }))
  )
  .prefix("/api/v1/invitations")
  .annotateMerge(OpenApi.annotations({ title: "Invitations" }))
{}

// Invitations to join a tenant (/invitations).
import { Schema } from "effect"
import { Role } from "../auth/Roles.ts"
import { IsoDateTime, Timestamps } from "./Common.ts"
import { Email, Password, Roles, User, Username } from "./Users.ts"

export const InvitationState = Schema.Literals(["PENDING", "ACCEPTED", "REVOKED", "EXPIRED"]).annotate({
  identifier: "InvitationState"
})

export const Invitation = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  roles: Schema.Array(Role),
  state: InvitationState,
  invitedBy: Schema.String,
  expiresAt: IsoDateTime,
  acceptedUserId: Schema.NullOr(Schema.String),
  ...Timestamps
}).annotate({ identifier: "Invitation" })
export type Invitation = typeof Invitation.Type

export const CreatedInvitation = Schema.Struct({
  ...Invitation.fields,
  token: Schema.String.annotate({ description: "the secret that accepts the invitation; shown only in this answer" })
}).annotate({ identifier: "CreatedInvitation" })

export const CreateInvitation = Schema.Struct({
  email: Email,
  roles: Roles,
  expiresInHours: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 * 365 })))
}).annotate({ identifier: "CreateInvitation" })

export const AcceptInvitation = Schema.Struct({
  token: Schema.String.check(Schema.isMinLength(1)),
  username: Username,
  password: Password
}).annotate({ identifier: "AcceptInvitation" })

export const AcceptedInvitation = Schema.Struct({
  invitation: Invitation,
  user: User
}).annotate({ identifier: "AcceptedInvitation" })

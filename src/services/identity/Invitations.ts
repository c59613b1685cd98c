// Invitations: an ADMIN invites an email address with roles; whoever holds the token may accept once, before it
// expires and unless it was revoked, creating a user in the inviting tenant. Only a hash of the token is stored.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { createHash, randomBytes } from "node:crypto"
import { CurrentTenant, inTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import type { Role } from "../../auth/Roles.ts"
import { AppConfig } from "../../config.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, toJson } from "../../persistence/SqlValues.ts"
import { type Conflict, conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Invitation } from "../../schema/Invitations.ts"
import type { InvitationId } from "../../schema/ResourceIds.ts"
import type { User } from "../../schema/Users.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowIso, nowMillis } from "../Time.ts"
import { Users } from "./Users.ts"

interface InvitationRow {
  readonly tenant_id: string
  readonly id: string
  readonly email: string
  readonly roles: unknown
  readonly state: Invitation["state"]
  readonly invited_by: string
  readonly expires_at: unknown
  readonly accepted_user_id: string | null
  readonly created_at: unknown
  readonly updated_at: unknown
}

/** A PENDING invitation past its expiry reads as EXPIRED, without a write. */
const toInvitation = (row: InvitationRow, now: number): Invitation => {
  const expiresAt = isoFromDb(row.expires_at)
  return {
    id: row.id,
    email: row.email,
    roles: fromJson<Array<Role>>(row.roles),
    state: row.state === "PENDING" && Date.parse(expiresAt) <= now ? "EXPIRED" : row.state,
    invitedBy: row.invited_by,
    expiresAt,
    acceptedUserId: row.accepted_user_id,
    createdAt: isoFromDb(row.created_at),
    updatedAt: isoFromDb(row.updated_at)
  }
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex")

export interface InvitationsShape {
  readonly listOutstanding: (page: PageRequest) => Effect.Effect<PageOf<Invitation>, never, CurrentTenant>
  /** An invitation into the request's tenant, by its caller. */
  readonly create: (
    input: { readonly email: string; readonly roles: ReadonlyArray<Role>; readonly expiresInHours?: number | undefined }
  ) => Effect.Effect<Invitation & { readonly token: string }, Conflict, CurrentTenant | CurrentPrincipal>
  readonly accept: (
    input: { readonly token: string; readonly username: string; readonly password: string }
  ) => Effect.Effect<
    { readonly invitation: Invitation; readonly user: User; readonly tenantId: string },
    NotFound | Conflict
  >
  readonly revoke: (id: InvitationId) => Effect.Effect<Invitation, NotFound | Conflict, CurrentTenant>
}

export class Invitations extends Context.Service<Invitations, InvitationsShape>()("flowcore/Invitations") {
  static readonly layer = Layer.effect(
    Invitations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const config = yield* AppConfig

      return {
        listOutstanding: Effect.fnUntraced(function*(page) {
          const tenantId = yield* CurrentTenant
          const now = yield* nowIso
          const where = sql`tenant_id = ${tenantId} AND state = 'PENDING' AND expires_at > ${now}`
          const ms = Date.parse(now)
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM invitations`,
            countFrom: sql`invitations`,
            where,
            orderBy: sql`created_at DESC, id DESC`,
            page,
            toItem: (row: InvitationRow) => toInvitation(row, ms)
          })
        }, Effect.orDie),

        create: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const invitedBy = (yield* CurrentPrincipal).sub
          const now = yield* nowMillis
          const nowText = new Date(now).toISOString()
          const outstanding = yield* sql`SELECT 1 FROM invitations WHERE tenant_id = ${tenantId}
              AND lower(email) = lower(${input.email}) AND state = 'PENDING' AND expires_at > ${nowText}`.pipe(
            Effect.orDie
          )
          if (outstanding.length > 0) {
            return yield* conflict(`an outstanding invitation for ${input.email} already exists`, [
              { field: "email", message: "already invited", code: "DUPLICATE" }
            ])
          }
          const id = yield* newId
          const token = randomBytes(32).toString("base64url")
          const expiresAt = new Date(now + (input.expiresInHours ?? config.invitationTtlHours) * 3_600_000)
            .toISOString()
          const rows = yield* sql<InvitationRow>`INSERT INTO invitations
                (tenant_id, id, email, roles, token_hash, state, invited_by, expires_at, accepted_user_id, created_at, updated_at)
              VALUES (${tenantId}, ${id}, ${input.email}, ${toJson([...new Set(input.roles)])}::jsonb, ${
            hashToken(token)
          }, 'PENDING',
                ${invitedBy}, ${expiresAt}, NULL, ${nowText}, ${nowText})
              RETURNING *`.pipe(Effect.orDie)
          return { ...toInvitation(rows[0]!, now), token }
        }),

        accept: Effect.fnUntraced(function*(input) {
          const now = yield* nowMillis
          const rows = yield* sql<InvitationRow>`SELECT * FROM invitations WHERE token_hash = ${hashToken(input.token)}`
            .pipe(
              Effect.orDie
            )
          const row = rows[0]
          if (row === undefined) return yield* notFound("invitation", "with the given token")
          const invitation = toInvitation(row, now)
          if (invitation.state !== "PENDING") {
            return yield* conflict(
              `invitation ${invitation.id} is ${invitation.state.toLowerCase()} and can no longer be accepted`,
              [
                { field: "token", message: `invitation is ${invitation.state}`, code: invitation.state }
              ]
            )
          }
          // Claim the invitation first, so two concurrent accepts cannot both create a user.
          const nowText = new Date(now).toISOString()
          const claimed = yield* sql`UPDATE invitations SET state = 'ACCEPTED', updated_at = ${nowText}
              WHERE id = ${row.id} AND state = 'PENDING' RETURNING id`.pipe(Effect.orDie)
          if (claimed.length === 0) return yield* conflict(`invitation ${row.id} was accepted concurrently`)
          // Accepting needs no token: the invitation names the tenant.
          const user = yield* users.create({
            username: input.username,
            password: input.password,
            email: row.email,
            roles: invitation.roles
          }).pipe(
            inTenant(row.tenant_id),
            Effect.tapError(() => sql`UPDATE invitations SET state = 'PENDING' WHERE id = ${row.id}`.pipe(Effect.orDie))
          )
          const updated = yield* sql<InvitationRow>`UPDATE invitations SET accepted_user_id = ${user.id}
              WHERE id = ${row.id} RETURNING *`.pipe(Effect.orDie)
          return { invitation: toInvitation(updated[0]!, now), user, tenantId: row.tenant_id }
        }),

        revoke: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const now = yield* nowMillis
          const rows = yield* sql<
            InvitationRow
          >`SELECT * FROM invitations WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          if (rows[0] === undefined) return yield* notFound("invitation", id)
          const current = toInvitation(rows[0], now)
          if (current.state === "ACCEPTED" || current.state === "REVOKED") {
            return yield* conflict(`invitation ${id} is ${current.state.toLowerCase()} and cannot be revoked`)
          }
          const nowText = new Date(now).toISOString()
          const updated = yield* sql<InvitationRow>`UPDATE invitations SET state = 'REVOKED', updated_at = ${nowText}
              WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
          return toInvitation(updated[0]!, now)
        })
      }
    })
  )
}

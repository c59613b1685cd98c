// Resource-level permissions, and the one check every area calls to enforce them.
//
// Rule (our choice; SERVICE.md leaves it open): roles gate each endpoint (Access.ts); resource authorizations
// then narrow access per resource. A resource with no grant of its type (neither for its id nor `*`) is open to
// everyone the role rules admit. Once any grant exists for it, only ADMINs and the grantees (the user, or a member of
// the group) holding the permission (or ALL) may act on it. This is opt-in per resource, so an installation without
// grants behaves exactly as the role rules say.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant, inTenant } from "../../auth/CurrentTenant.ts"
import type { Principal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, toJson } from "../../persistence/SqlValues.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import { Forbidden, type NotFound, notFound, type ValidationError, validationError } from "../../schema/ApiErrors.ts"
import type { Permission, ResourceAuthorization, ResourceType } from "../../schema/Authorizations.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import { type AuthorizationId, GroupId, parseId } from "../../schema/ResourceIds.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, nowIso } from "../Time.ts"
import { Groups } from "./Groups.ts"
import { Users } from "./Users.ts"

interface AuthorizationRow {
  readonly id: string
  readonly resource_type: ResourceType
  readonly resource_id: string
  readonly permissions: unknown
  readonly user_id: string | null
  readonly group_id: string | null
  readonly created_at: unknown
}

const toAuthorization = (row: AuthorizationRow): ResourceAuthorization => ({
  id: row.id,
  resourceType: row.resource_type,
  resourceId: row.resource_id,
  permissions: fromJson<Array<Permission>>(row.permissions),
  userId: row.user_id,
  groupId: row.group_id,
  createdAt: isoFromDb(row.created_at)
})

export interface Grant {
  readonly resourceType: ResourceType
  readonly resourceId?: string | undefined
  readonly permissions: ReadonlyArray<Permission>
  readonly userId?: string | undefined
  readonly groupId?: string | undefined
}

export interface AuthorizationFilter {
  readonly resourceType?: ResourceType | undefined
  readonly resourceId?: string | undefined
  readonly userId?: string | undefined
  readonly groupId?: string | undefined
}

export interface ResourceAuthorizationsShape {
  /** The grants of the request's tenant (CurrentTenant). */
  readonly list: (
    filter: AuthorizationFilter,
    page: PageRequest
  ) => Effect.Effect<PageOf<ResourceAuthorization>, never, CurrentTenant>
  readonly grant: (grant: Grant) => Effect.Effect<ResourceAuthorization, NotFound | ValidationError, CurrentTenant>
  readonly revoke: (id: AuthorizationId) => Effect.Effect<ResourceAuthorization, NotFound, CurrentTenant>
  /** Whether the caller may exercise `permission` on the resource (see the rule at the top of this file). */
  readonly isPermitted: (
    principal: Principal,
    resourceType: ResourceType,
    resourceId: string,
    permission: Permission
  ) => Effect.Effect<boolean>
  /** Like isPermitted, but a refusal is 403 FORBIDDEN naming the permission and the resource. */
  readonly require: (
    principal: Principal,
    resourceType: ResourceType,
    resourceId: string,
    permission: Permission
  ) => Effect.Effect<void, Forbidden>
}

export class ResourceAuthorizations extends Context.Service<ResourceAuthorizations, ResourceAuthorizationsShape>()(
  "flowcore/ResourceAuthorizations"
) {
  static readonly layer = Layer.effect(
    ResourceAuthorizations,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const groups = yield* Groups
      const groupIdOf = parseId(GroupId)

      const isPermitted: ResourceAuthorizationsShape["isPermitted"] = Effect.fnUntraced(function*(
        principal,
        resourceType,
        resourceId,
        permission
      ) {
        if (principal.roles.includes("ADMIN")) return true
        const grants = yield* sql<AuthorizationRow>`SELECT * FROM resource_authorizations
            WHERE tenant_id = ${principal.tenantId} AND resource_type = ${resourceType}
              AND (resource_id = ${resourceId} OR resource_id = '*')`
        if (grants.length === 0) return true
        const user = yield* users.findByUsername(principal.sub).pipe(inTenant(principal.tenantId))
        if (user === undefined) return false
        const groupIds = yield* groups.groupIdsOf(user.id).pipe(inTenant(principal.tenantId))
        return grants.some((row) => {
          const holder = row.user_id === user.id || (row.group_id !== null && groupIds.includes(row.group_id))
          const permissions = fromJson<Array<Permission>>(row.permissions)
          return holder && (permissions.includes(permission) || permissions.includes("ALL"))
        })
      }, Effect.orDie)

      return {
        list: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.resourceType === undefined ? [] : [sql`resource_type = ${filter.resourceType}`]),
            ...(filter.resourceId === undefined ? [] : [sql`resource_id = ${filter.resourceId}`]),
            ...(filter.userId === undefined
              ? []
              : [isUuid(filter.userId) ? sql`user_id = ${filter.userId}` : sql`false`]),
            ...(filter.groupId === undefined
              ? []
              : [isUuid(filter.groupId) ? sql`group_id = ${filter.groupId}` : sql`false`])
          ])
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM resource_authorizations`,
            countFrom: sql`resource_authorizations`,
            where,
            orderBy: sql`created_at DESC, id DESC`,
            page,
            toItem: toAuthorization
          })
        }, Effect.orDie),
        grant: Effect.fnUntraced(function*(grant) {
          const tenantId = yield* CurrentTenant
          if ((grant.userId === undefined) === (grant.groupId === undefined)) {
            return yield* validationError("userId", "give exactly one of userId and groupId", "ONE_OF")
          }
          if (grant.userId !== undefined) yield* users.get(grant.userId)
          if (grant.groupId !== undefined) yield* groups.get(yield* groupIdOf(grant.groupId))
          const id = yield* newId
          const now = yield* nowIso
          const permissions = [...new Set(grant.permissions)]
          const rows = yield* sql<AuthorizationRow>`INSERT INTO resource_authorizations
                (tenant_id, id, resource_type, resource_id, permissions, user_id, group_id, created_at)
              VALUES (${tenantId}, ${id}, ${grant.resourceType}, ${grant.resourceId ?? "*"}, ${
            toJson(permissions)
          }::jsonb,
                ${grant.userId ?? null}, ${grant.groupId ?? null}, ${now})
              RETURNING *`.pipe(Effect.orDie)
          return toAuthorization(rows[0]!)
        }),
        revoke: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const rows = yield* sql<AuthorizationRow>`DELETE FROM resource_authorizations
              WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("authorization", id)
          return toAuthorization(rows[0])
        }),
        isPermitted,
        require: (principal, resourceType, resourceId, permission) =>
          Effect.flatMap(isPermitted(principal, resourceType, resourceId, permission), (allowed) =>
            allowed
              ? Effect.void
              : Effect.fail(
                new Forbidden({
                  message: `${principal.sub} lacks ${permission} on ${resourceType} ${resourceId}`,
                  errors: [{
                    field: "authorization",
                    message: `${permission} on ${resourceType} ${resourceId} is not granted`,
                    code: "NOT_GRANTED"
                  }]
                })
              ))
      }
    })
  )
}

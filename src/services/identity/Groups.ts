// Groups of users within a tenant, and their members.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { isUniqueViolation } from "../../persistence/SqlValues.ts"
import { type Conflict, conflict, NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { CreateGroup, Group, GroupMember } from "../../schema/Groups.ts"
import type { GroupId, UserId } from "../../schema/ResourceIds.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowIso } from "../Time.ts"
import { Users } from "./Users.ts"

interface GroupRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly member_count: unknown
  readonly created_at: unknown
}

const toGroup = (row: GroupRow): Group => ({
  id: row.id,
  name: row.name,
  description: row.description,
  memberCount: Number(row.member_count ?? 0),
  createdAt: isoFromDb(row.created_at)
})

interface MemberRow {
  readonly group_id: string
  readonly user_id: string
  readonly username: string
  readonly added_at: unknown
}

const toMember = (row: MemberRow): GroupMember => ({
  groupId: row.group_id,
  userId: row.user_id,
  username: row.username,
  addedAt: isoFromDb(row.added_at)
})

/** The groups of the request's tenant (CurrentTenant). */
export interface GroupsShape {
  readonly list: (page: PageRequest) => Effect.Effect<PageOf<Group>, never, CurrentTenant>
  readonly create: (input: typeof CreateGroup.Type) => Effect.Effect<Group, Conflict, CurrentTenant>
  readonly get: (id: GroupId) => Effect.Effect<Group, NotFound, CurrentTenant>
  readonly members: (groupId: GroupId, page: PageRequest) => Effect.Effect<PageOf<GroupMember>, NotFound, CurrentTenant>
  readonly addMember: (
    groupId: GroupId,
    userId: string
  ) => Effect.Effect<GroupMember, NotFound | Conflict, CurrentTenant>
  readonly removeMember: (groupId: GroupId, userId: UserId) => Effect.Effect<GroupMember, NotFound, CurrentTenant>
  /** Ids of the groups a user belongs to. */
  readonly groupIdsOf: (userId: string) => Effect.Effect<ReadonlyArray<string>, never, CurrentTenant>
}

export class Groups extends Context.Service<Groups, GroupsShape>()("flowcore/Groups") {
  static readonly layer = Layer.effect(
    Groups,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users

      const selectGroups = (tenantId: string) =>
        sql`SELECT g.id, g.name, g.description, g.created_at,
              (SELECT count(*) FROM group_members m WHERE m.group_id = g.id) AS member_count
            FROM user_groups g WHERE g.tenant_id = ${tenantId}`

      const get: GroupsShape["get"] = Effect.fnUntraced(function*(id) {
        const tenantId = yield* CurrentTenant
        const rows = yield* sql<GroupRow>`${selectGroups(tenantId)} AND g.id = ${id}`.pipe(Effect.orDie)
        if (rows[0] === undefined) return yield* notFound("group", id)
        return toGroup(rows[0])
      })

      return {
        list: Effect.fnUntraced(function*(page) {
          const tenantId = yield* CurrentTenant
          return yield* pagedQuery(sql, {
            select: sql`SELECT g.id, g.name, g.description, g.created_at,
                  (SELECT count(*) FROM group_members m WHERE m.group_id = g.id) AS member_count
                FROM user_groups g`,
            countFrom: sql`user_groups g`,
            where: sql`g.tenant_id = ${tenantId}`,
            orderBy: sql`g.name, g.id`,
            page,
            toItem: toGroup
          })
        }, Effect.orDie),
        create: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const id = yield* newId
          const now = yield* nowIso
          const rows = yield* sql<GroupRow>`INSERT INTO user_groups (tenant_id, id, name, description, created_at)
              VALUES (${tenantId}, ${id}, ${input.name}, ${input.description ?? null}, ${now})
              RETURNING id, name, description, created_at, 0 AS member_count`.pipe(
            Effect.catchIf(isUniqueViolation, () =>
              Effect.fail(conflict(`a group named ${input.name} already exists`, [
                { field: "name", message: "already exists", code: "DUPLICATE" }
              ]))),
            Effect.catchTag("SqlError", Effect.die)
          )
          return toGroup(rows[0]!)
        }),
        get,
        members: Effect.fnUntraced(function*(groupId, page) {
          const tenantId = yield* CurrentTenant
          yield* get(groupId)
          return yield* pagedQuery(sql, {
            select: sql`SELECT m.group_id, m.user_id, u.username, m.added_at
                FROM group_members m JOIN users u ON u.id = m.user_id`,
            countFrom: sql`group_members m`,
            where: sql`m.tenant_id = ${tenantId} AND m.group_id = ${groupId}`,
            orderBy: sql`u.username`,
            page,
            toItem: toMember
          }).pipe(Effect.orDie)
        }),
        addMember: Effect.fnUntraced(function*(groupId, userId) {
          const tenantId = yield* CurrentTenant
          const group = yield* get(groupId)
          const user = yield* users.get(userId)
          const now = yield* nowIso
          const inserted = yield* sql<MemberRow>`INSERT INTO group_members (tenant_id, group_id, user_id, added_at)
              VALUES (${tenantId}, ${group.id}, ${user.id}, ${now}) ON CONFLICT DO NOTHING
              RETURNING group_id, user_id, added_at, ${user.username} AS username`.pipe(Effect.orDie)
          if (inserted[0] === undefined) {
            return yield* conflict(`user ${user.id} is already a member of group ${group.id}`, [
              { field: "userId", message: "already a member", code: "DUPLICATE" }
            ])
          }
          return toMember(inserted[0])
        }),
        removeMember: Effect.fnUntraced(function*(groupId, userId) {
          const tenantId = yield* CurrentTenant
          const group = yield* get(groupId)
          const rows = yield* sql<MemberRow>`DELETE FROM group_members m USING users u
              WHERE m.tenant_id = ${tenantId} AND m.group_id = ${group.id} AND m.user_id = ${userId} AND u.id = m.user_id
              RETURNING m.group_id, m.user_id, m.added_at, u.username`.pipe(Effect.orDie)
          if (rows[0] === undefined) {
            return yield* new NotFound({
              message: `group member ${userId} not found: user ${userId} is not a member of group ${group.id}`,
              errors: [{ field: "userId", message: "not a member of the group", code: "NOT_FOUND" }]
            })
          }
          return toMember(rows[0])
        }),
        groupIdsOf: (userId) =>
          Effect.flatMap(CurrentTenant, (tenantId) =>
            sql<
              { group_id: string }
            >`SELECT group_id FROM group_members WHERE tenant_id = ${tenantId} AND user_id = ${userId}`.pipe(
              Effect.map((rows) => rows.map((row) => row.group_id)),
              Effect.orDie
            ))
      }
    })
  )
}

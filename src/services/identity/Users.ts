// Users of a tenant. Usernames are unique installation-wide, because POST /auth/login names no tenant.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { hashPassword } from "../../auth/PasswordHasher.ts"
import type { Role } from "../../auth/Roles.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { countOf, fromJson, isUniqueViolation, toJson } from "../../persistence/SqlValues.ts"
import { type Conflict, conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { User } from "../../schema/Users.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, nowIso } from "../Time.ts"

export interface UserRow {
  readonly tenant_id: string
  readonly id: string
  readonly username: string
  readonly email: string | null
  readonly password_hash: string
  readonly roles: unknown
  readonly created_at: unknown
  readonly updated_at: unknown
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  username: row.username,
  email: row.email,
  roles: fromJson<Array<Role>>(row.roles),
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

export interface NewUser {
  readonly username: string
  readonly password: string
  readonly email?: string | undefined
  readonly roles: ReadonlyArray<Role>
}

export interface UsersShape {
  /** The users of the request's tenant (CurrentTenant). */
  readonly list: (page: PageRequest) => Effect.Effect<PageOf<User>, never, CurrentTenant>
  /** A user in the request's tenant; usernames are unique across the installation. */
  readonly create: (input: NewUser) => Effect.Effect<User, Conflict, CurrentTenant>
  readonly get: (id: string) => Effect.Effect<User, NotFound, CurrentTenant>
  /** For sign-in: the user with this username in any tenant, with its password hash. */
  readonly findForLogin: (username: string) => Effect.Effect<UserRow | undefined>
  readonly findByUsername: (username: string) => Effect.Effect<User | undefined, never, CurrentTenant>
  readonly countAll: Effect.Effect<number>
}

export class Users extends Context.Service<Users, UsersShape>()("flowcore/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const create: UsersShape["create"] = Effect.fnUntraced(function*(input) {
        const tenantId = yield* CurrentTenant
        const taken = yield* sql`SELECT 1 FROM users WHERE lower(username) = lower(${input.username})`.pipe(
          Effect.orDie
        )
        if (taken.length > 0) {
          return yield* conflict(`username ${input.username} is already taken`, [
            { field: "username", message: "already taken", code: "DUPLICATE" }
          ])
        }
        const id = yield* newId
        const now = yield* nowIso
        const passwordHash = yield* hashPassword(input.password)
        const rows = yield* sql<
          UserRow
        >`INSERT INTO users (tenant_id, id, username, email, password_hash, roles, created_at, updated_at)
            VALUES (${tenantId}, ${id}, ${input.username}, ${input.email ?? null}, ${passwordHash}, ${
          toJson(input.roles)
        }::jsonb, ${now}, ${now})
            RETURNING *`.pipe(
          Effect.catchIf(
            isUniqueViolation,
            () => Effect.fail(conflict(`username ${input.username} is already taken`))
          ),
          Effect.catchTag("SqlError", Effect.die)
        )
        return toUser(rows[0]!)
      })

      return {
        list: (page) =>
          Effect.flatMap(CurrentTenant, (tenantId) =>
            pagedQuery(sql, {
              select: sql`SELECT * FROM users`,
              countFrom: sql`users`,
              where: sql`tenant_id = ${tenantId}`,
              orderBy: sql`created_at DESC, id DESC`,
              page,
              toItem: toUser
            }).pipe(Effect.orDie)),
        create,
        get: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          // The id comes in a body (a member to add, a grantee): one that is not a UUID names no user.
          if (!isUuid(id)) return yield* notFound("user", id)
          const rows = yield* sql<UserRow>`SELECT * FROM users WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          if (rows[0] === undefined) return yield* notFound("user", id)
          return toUser(rows[0])
        }),
        findForLogin: (username) =>
          sql<UserRow>`SELECT * FROM users WHERE lower(username) = lower(${username})`.pipe(
            Effect.map((rows) => rows[0]),
            Effect.orDie
          ),
        findByUsername: (username) =>
          Effect.flatMap(
            CurrentTenant,
            (tenantId) =>
              sql<UserRow>`SELECT * FROM users WHERE tenant_id = ${tenantId} AND lower(username) = lower(${username})`
                .pipe(
                  Effect.map((rows) => (rows[0] === undefined ? undefined : toUser(rows[0]))),
                  Effect.orDie
                )
          ),
        countAll: sql<{ count: unknown }>`SELECT count(*) AS count FROM users`.pipe(Effect.map(countOf), Effect.orDie)
      }
    })
  )
}

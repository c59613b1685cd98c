// Password sign-in (POST /auth/login) and the first-start bootstrap of tenant `default` with its ADMIN.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { inTenant } from "../../auth/CurrentTenant.ts"
import { DUMMY_HASH, verifyPassword } from "../../auth/PasswordHasher.ts"
import type { Role } from "../../auth/Roles.ts"
import { AppConfig } from "../../config.ts"
import { fromJson } from "../../persistence/SqlValues.ts"
import { Unauthorized } from "../../schema/ApiErrors.ts"
import { newId } from "../Ids.ts"
import { Tenants } from "./Tenants.ts"
import { TokenService } from "./TokenService.ts"
import { Users } from "./Users.ts"

export interface SignedIn {
  readonly token: string
  readonly tokenType: "Bearer"
  readonly expiresAt: string
  readonly expiresIn: number
  readonly username: string
  readonly tenantId: string
  readonly roles: ReadonlyArray<Role>
}

export interface SignInShape {
  readonly login: (username: string, password: string) => Effect.Effect<SignedIn, Unauthorized>
}

const invalidCredentials = new Unauthorized({
  message: "invalid username or password",
  errors: [{ field: "password", message: "invalid username or password", code: "INVALID_CREDENTIALS" }]
})

export class SignIn extends Context.Service<SignIn, SignInShape>()("flowcore/SignIn") {
  static readonly layer = Layer.effect(
    SignIn,
    Effect.gen(function*() {
      const users = yield* Users
      const tokens = yield* TokenService
      return {
        login: Effect.fnUntraced(function*(username, password) {
          const row = yield* users.findForLogin(username)
          // Verify against a dummy hash for unknown users too, so response time does not reveal which exist.
          const valid = yield* verifyPassword(password, row?.password_hash ?? DUMMY_HASH)
          if (row === undefined || !valid) return yield* invalidCredentials
          const roles = fromJson<Array<Role>>(row.roles)
          const issued = yield* tokens.issue({ sub: row.username, tenantId: row.tenant_id, roles })
          return { ...issued, tokenType: "Bearer" as const, username: row.username, tenantId: row.tenant_id, roles }
        })
      }
    })
  )
}

/**
 * First start on an empty database: tenant `default` and an ADMIN from ADMIN_USERNAME / ADMIN_PASSWORD; without a
 * password one is generated and printed once.
 */
export const BootstrapLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const users = yield* Users
    const tenants = yield* Tenants
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    // Nodes of a cluster may start together on an empty database: one of them bootstraps, under this lock.
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(7276002)`
      const existing = yield* tenants.findByName("default")
      if (existing !== undefined || (yield* users.countAll) > 0) return
      const tenantId = yield* newId
      yield* tenants.ensure(tenantId, "default")
      const password = config.adminPassword ?? randomBytes(12).toString("base64url")
      yield* users.create({ username: config.adminUsername, password, roles: ["ADMIN"] }).pipe(
        inTenant(tenantId),
        Effect.orDie
      )
      if (config.adminPassword === undefined) {
        yield* Effect.logWarning(
          `First start: created tenant "default" and ADMIN user "${config.adminUsername}" with generated password: ${password} ` +
            "(shown once; set ADMIN_PASSWORD to choose it)"
        )
      } else {
        yield* Effect.logInfo(`First start: created tenant "default" and ADMIN user "${config.adminUsername}"`)
      }
    })).pipe(Effect.orDie)
  })
)

// SERVICE.md "Authentication": sign-in, token claims, 401 vs 403, OIDC tokens, tenants from tokens.
import { decodeJwt } from "jose"
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { anonymous, Caller, givenTenant, tokenFor, uniqueName } from "../support/Scenario.ts"
import { ADMIN_PASSWORD, bootApp, OIDC_AUDIENCE, OIDC_ISSUER, testApp } from "../support/TestApp.ts"

describe("sign-in", () => {
  it("issues a JWT with sub, tenantId (UUID), roles, iat, exp, iss for a valid password", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin()
    const user = await admin.createUser({ roles: ["PROCESS_OWNER", "TASK_USER"] })
    const data = (await (await anonymous()).post("/auth/login", { username: user.username, password: "password-123" }))
      .ok(200)
    expect(data).toMatchObject({
      tokenType: "Bearer",
      username: user.username,
      tenantId: tenant.id,
      roles: ["PROCESS_OWNER", "TASK_USER"]
    })
    const claims = decodeJwt(data.token)
    expect(claims).toMatchObject({
      sub: user.username,
      tenantId: tenant.id,
      roles: ["PROCESS_OWNER", "TASK_USER"],
      iss: "flowcore"
    })
    expect(typeof claims.iat).toBe("number")
    expect(claims.exp! - claims.iat!).toBe(3600)
    // the token works
    const me = new Caller(tenant.app, data.token)
    expect((await me.get("/auth/users")).status).toBe(403)
  })

  it("rejects a wrong password or an unknown user with 401, the same answer for both", async () => {
    const admin = await (await givenTenant()).admin()
    const user = await admin.createUser()
    const anon = await anonymous()
    const wrong = (await anon.post("/auth/login", { username: user.username, password: "not-the-password" })).fails(
      401,
      "UNAUTHORIZED"
    )
    const unknown = (await anon.post("/auth/login", { username: uniqueName("ghost"), password: "whatever-1" })).fails(
      401,
      "UNAUTHORIZED"
    )
    expect(wrong.message).toBe(unknown.message)
  })

  it("lets the bootstrap ADMIN of tenant default sign in and administer", async () => {
    const anon = await anonymous()
    const data = (await anon.post("/auth/login", { username: "admin", password: ADMIN_PASSWORD })).ok(200)
    expect(data.roles).toEqual(["ADMIN"])
    const admin = new Caller(anon.app, data.token)
    const users = (await admin.get("/auth/users?size=1000")).ok()
    expect(users.items.map((u: { username: string }) => u.username)).toContain("admin")
  })

  it("stores only a slow salted hash of each password", async () => {
    const app = await testApp()
    const { SqlClient } = await import("effect/sql")
    const { Effect } = await import("effect")
    const admin = await (await givenTenant()).admin()
    const a = await admin.createUser({ password: "same-password-1" })
    const b = await admin.createUser({ password: "same-password-1" })
    const hashes = await app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ password_hash: string }>`SELECT password_hash FROM users WHERE id IN (${a.id}, ${b.id})`
    }))
    expect(hashes).toHaveLength(2)
    for (const { password_hash } of hashes) {
      expect(password_hash).toMatch(/^scrypt\$16384\$8\$1\$/)
      expect(password_hash).not.toContain("same-password-1")
    }
    expect(hashes[0]!.password_hash).not.toBe(hashes[1]!.password_hash)
  })

  it("reports the sign-in methods publicly", async () => {
    const data = (await (await anonymous()).get("/auth/config")).ok()
    expect(data).toMatchObject({
      password: { enabled: true },
      oidc: { enabled: true, issuer: OIDC_ISSUER, audience: OIDC_AUDIENCE, clientId: null, scope: null }
    })
  })

  it("names the provider's public client for the web UI's sign-in when OIDC_CLIENT_ID is set", async () => {
    const app = await bootApp({
      oidc: { issuer: OIDC_ISSUER, jwksUrl: "http://127.0.0.1:1/jwks", audience: OIDC_AUDIENCE, clientId: "cockpit" }
    })
    try {
      const data = (await new Caller(app, undefined).get("/auth/config")).ok()
      expect(data.oidc).toMatchObject({ enabled: true, clientId: "cockpit", scope: null })
    } finally {
      await app.runtime.dispose()
    }
  })
})

describe("tokens: 401 for missing, invalid or expired; 403 for a missing role", () => {
  it("401 without a token, with garbage, with a foreign signature, with a wrong issuer", async () => {
    const app = await testApp()
    const tenantId = randomUUID()
    const cases = [
      undefined,
      "not-a-jwt",
      await tokenFor(app, { tenantId, sub: "x", roles: ["ADMIN"] }, {
        secret: new TextEncoder().encode("another-secret-another-secret-0123456789")
      }),
      await tokenFor(app, { tenantId, sub: "x", roles: ["ADMIN"] }, { issuer: "someone-else" })
    ]
    for (const token of cases) {
      ;(await new Caller(app, token).get("/auth/users")).fails(401, "UNAUTHORIZED")
    }
  })

  it("401 for a token whose tenantId is not a UUID", async () => {
    const app = await testApp()
    const token = await tokenFor(app, { tenantId: "tenant-one", sub: "x", roles: ["ADMIN"] })
    expect((await new Caller(app, token).get("/auth/users")).fails(401, "UNAUTHORIZED").message).toMatch(/tenantId/)
  })

  it("401 once the token has expired (the clock moves, nobody sleeps)", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin()
    ;(await admin.get("/auth/users")).ok()
    tenant.app.clock.advance("2 hours")
    expect((await admin.get("/auth/users")).fails(401, "UNAUTHORIZED").message).toMatch(/exp/)
  })

  it("403 for a valid token without the role; ADMIN-only endpoints refuse PROCESS_OWNER and TASK_USER", async () => {
    const tenant = await givenTenant()
    for (const caller of [await tenant.owner(), await tenant.taskUser(), await tenant.as([])]) {
      for (
        const [method, path] of [["GET", "/auth/users"], ["POST", "/auth/groups"], ["GET", "/auth/authorizations"], [
          "GET",
          "/invitations"
        ], ["GET", "/audit-events"]] as const
      ) {
        const reply = await caller.call(method, path, method === "POST" ? { body: { name: "g" } } : {})
        expect(reply.fails(403, "FORBIDDEN").message).toMatch(/ADMIN/)
      }
    }
  })

  it("checks the token before the body: a bad body without a token is 401, not 400", async () => {
    ;(await (await anonymous()).call("POST", "/auth/users", { rawBody: "{oops" })).fails(401, "UNAUTHORIZED")
  })
})

describe("OIDC identity provider", () => {
  it("accepts its tokens (signature via JWKS, issuer, audience, expiry) and creates the tenant on first sight", async () => {
    const app = await testApp()
    const tenantId = randomUUID()
    const token = await app.oidc.sign({ sub: "alice@idp", tenantId, roles: ["ADMIN", "SOMETHING_ELSE"] })
    const alice = new Caller(app, token)
    ;(await alice.get("/auth/users")).ok()
    const group = (await alice.post("/auth/groups", { name: "from-oidc" })).ok(201)
    // the tenant exists from then on: a local token for it sees the same data
    const local = await (await import("../support/Scenario.ts")).tokenFor(app, {
      tenantId,
      sub: "bob",
      roles: ["ADMIN"]
    })
    const names = (await new Caller(app, local).get("/auth/groups")).ok().items.map((g: { id: string }) => g.id)
    expect(names).toEqual([group.id])
  })

  it("rejects a wrong audience, an expired token, and a token without a UUID tenantId", async () => {
    const app = await testApp()
    const tenantId = randomUUID()
    const wrongAudience = await app.oidc.sign({ sub: "a", tenantId, roles: ["ADMIN"] }, { audience: "other-api" })
    const expired = await app.oidc.sign({ sub: "a", tenantId, roles: ["ADMIN"] }, { expiresInSeconds: -10 })
    const noTenant = await app.oidc.sign({ sub: "a", roles: ["ADMIN"] })
    for (const token of [wrongAudience, expired, noTenant]) {
      ;(await new Caller(app, token).get("/auth/users")).fails(401, "UNAUTHORIZED")
    }
  })

  it("gives an OIDC caller without the role 403", async () => {
    const app = await testApp()
    const token = await app.oidc.sign({ sub: "t", tenantId: randomUUID(), roles: ["TASK_USER"] })
    ;(await new Caller(app, token).get("/audit-events")).fails(403, "FORBIDDEN")
  })
})

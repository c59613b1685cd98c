// Invitations: invite with roles, accept once with the token, revoke, expiry.
import { describe, expect, it } from "vitest"
import { anonymous, Caller, givenTenant, uniqueName } from "../support/Scenario.ts"

describe("invitations", () => {
  it("invites an email with roles; accepting creates the user in the inviting tenant, who can then sign in", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin("the-admin")
    const invitation = (await admin.post("/invitations", { email: "new.person@example.com", roles: ["PROCESS_OWNER"] }))
      .ok(201)
    expect(invitation).toMatchObject({
      email: "new.person@example.com",
      roles: ["PROCESS_OWNER"],
      state: "PENDING",
      invitedBy: "the-admin"
    })
    expect(invitation.token).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    const listed = (await admin.get("/invitations")).ok()
    expect(listed.items.map((i: { id: string }) => i.id)).toEqual([invitation.id])
    expect(listed.items[0]).not.toHaveProperty("token")

    const anon = await anonymous()
    const username = uniqueName("newbie")
    const accepted =
      (await anon.post("/invitations/accept", { token: invitation.token, username, password: "a-good-password" })).ok(
        201
      )
    expect(accepted.invitation).toMatchObject({
      id: invitation.id,
      state: "ACCEPTED",
      acceptedUserId: accepted.user.id
    })
    expect(accepted.user).toMatchObject({ username, email: "new.person@example.com", roles: ["PROCESS_OWNER"] })

    const login = (await anon.post("/auth/login", { username, password: "a-good-password" })).ok()
    expect(login.tenantId).toBe(tenant.id)
    expect((await admin.get("/auth/users")).ok().items.map((u: { username: string }) => u.username)).toContain(username)
    expect((await admin.get("/invitations")).ok().totalItems).toBe(0)
    // the new user acts in the inviting tenant
    const newcomer = new Caller(anon.app, login.token)
    ;(await newcomer.get("/auth/users")).fails(403, "FORBIDDEN")
  })

  it("refuses accepting twice, after revoke, after expiry, and an unknown token", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin()
    const anon = await anonymous()
    const once = (await admin.post("/invitations", { email: `${uniqueName("a")}@example.com`, roles: ["TASK_USER"] }))
      .ok(201)
    ;(await anon.post("/invitations/accept", {
      token: once.token,
      username: uniqueName("u"),
      password: "password-123"
    })).ok(201)
    expect(
      (await anon.post("/invitations/accept", {
        token: once.token,
        username: uniqueName("u"),
        password: "password-123"
      }))
        .fails(409, "CONFLICT").message
    ).toMatch(/accepted/)

    const revoked =
      (await admin.post("/invitations", { email: `${uniqueName("b")}@example.com`, roles: ["TASK_USER"] })).ok(201)
    expect((await admin.delete(`/invitations/${revoked.id}`)).ok().state).toBe("REVOKED")
    ;(await admin.delete(`/invitations/${revoked.id}`)).fails(409, "CONFLICT")
    expect(
      (await anon.post("/invitations/accept", {
        token: revoked.token,
        username: uniqueName("u"),
        password: "password-123"
      }))
        .fails(409, "CONFLICT").message
    ).toMatch(/revoked/)

    const expiring = (await admin.post("/invitations", {
      email: `${uniqueName("c")}@example.com`,
      roles: ["TASK_USER"],
      expiresInHours: 1
    })).ok(201)
    tenant.app.clock.advance("61 minutes")
    expect(
      (await anon.post("/invitations/accept", {
        token: expiring.token,
        username: uniqueName("u"),
        password: "password-123"
      }))
        .fails(409, "CONFLICT").message
    ).toMatch(/expired/)
    ;(await anon.post("/invitations/accept", {
      token: "no-such-token",
      username: uniqueName("u"),
      password: "password-123"
    }))
      .fails(404, "RESOURCE_NOT_FOUND")
  })

  it("keeps the invitation usable when the chosen username is taken", async () => {
    const admin = await (await givenTenant()).admin()
    const taken = await admin.createUser()
    const invitation =
      (await admin.post("/invitations", { email: `${uniqueName("d")}@example.com`, roles: ["TASK_USER"] })).ok(201)
    const anon = await anonymous()
    ;(await anon.post("/invitations/accept", {
      token: invitation.token,
      username: taken.username,
      password: "password-123"
    })).fails(409, "CONFLICT")
    ;(await anon.post("/invitations/accept", {
      token: invitation.token,
      username: uniqueName("free"),
      password: "password-123"
    })).ok(201)
  })

  it("refuses a second outstanding invitation for the same email, and bad input", async () => {
    const admin = await (await givenTenant()).admin()
    const email = `${uniqueName("e")}@example.com`
    ;(await admin.post("/invitations", { email, roles: ["TASK_USER"] })).ok(201)
    ;(await admin.post("/invitations", { email, roles: ["ADMIN"] })).fails(409, "CONFLICT")
    const bad = (await admin.post("/invitations", { email: "not-an-email", roles: [] })).fails(400, "VALIDATION_ERROR")
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "roles"])
  })
})

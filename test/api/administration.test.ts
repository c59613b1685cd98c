// Users, groups, members and resource authorizations (all ADMIN only).
import { describe, expect, it } from "vitest"
import { givenTenant, uniqueName } from "../support/Scenario.ts"

describe("users", () => {
  it("creates users with roles and lists them newest first, paged", async () => {
    const admin = await (await givenTenant()).admin()
    const first = await admin.createUser({ roles: ["TASK_USER"], email: "first@example.com" })
    const second = await admin.createUser({ roles: ["PROCESS_OWNER"] })
    expect(first).toMatchObject({ roles: ["TASK_USER"], email: "first@example.com" })
    expect(first).not.toHaveProperty("password")
    expect(first).not.toHaveProperty("passwordHash")
    const page = (await admin.get("/auth/users?size=1")).ok()
    expect(page).toMatchObject({ page: 0, size: 1, totalItems: 2, totalPages: 2 })
    expect(page.items[0].id).toBe(second.id)
    expect((await admin.get("/auth/users?page=1&size=1")).ok().items[0].id).toBe(first.id)
  })

  it("refuses a duplicate username with 409 CONFLICT, case-insensitively", async () => {
    const admin = await (await givenTenant()).admin()
    const name = uniqueName("dup")
    await admin.createUser({ username: name })
    const body = (await admin.post("/auth/users", {
      username: name.toUpperCase(),
      password: "password-123",
      roles: ["TASK_USER"]
    }))
      .fails(409, "CONFLICT")
    expect(body.message).toContain(name.toUpperCase())
    expect(body.errors[0]).toMatchObject({ field: "username", code: "DUPLICATE" })
  })

  it("refuses an empty role list and a bad email with 400 naming the field", async () => {
    const admin = await (await givenTenant()).admin()
    const noRoles =
      (await admin.post("/auth/users", { username: uniqueName("u"), password: "password-123", roles: [] })).fails(
        400,
        "VALIDATION_ERROR"
      )
    expect(noRoles.errors[0].field).toBe("roles")
    const badEmail = (await admin.post("/auth/users", {
      username: uniqueName("u"),
      password: "password-123",
      roles: ["ADMIN"],
      email: "nope"
    }))
      .fails(400, "VALIDATION_ERROR")
    expect(badEmail.errors[0].field).toBe("email")
  })
})

describe("groups and members", () => {
  it("creates groups, adds, lists and removes members", async () => {
    const admin = await (await givenTenant()).admin()
    const group = await admin.createGroup("reviewers")
    expect(group).toMatchObject({ name: "reviewers", memberCount: 0, description: null })
    const user = await admin.createUser()
    const member = (await admin.post(`/auth/groups/${group.id}/members`, { userId: user.id })).ok(201)
    expect(member).toMatchObject({ groupId: group.id, userId: user.id, username: user.username })
    expect((await admin.get(`/auth/groups/${group.id}/members`)).ok().items).toEqual([member])
    expect((await admin.get("/auth/groups")).ok().items[0].memberCount).toBe(1)
    const removed = (await admin.delete(`/auth/groups/${group.id}/members/${user.id}`)).ok()
    expect(removed.userId).toBe(user.id)
    expect((await admin.get(`/auth/groups/${group.id}/members`)).ok().totalItems).toBe(0)
  })

  it("answers duplicate names, duplicate members, unknown users and non-members with the right code", async () => {
    const admin = await (await givenTenant()).admin()
    const group = await admin.createGroup("ops")
    ;(await admin.post("/auth/groups", { name: "OPS" })).fails(409, "CONFLICT")
    const user = await admin.createUser()
    ;(await admin.post(`/auth/groups/${group.id}/members`, { userId: user.id })).ok(201)
    ;(await admin.post(`/auth/groups/${group.id}/members`, { userId: user.id })).fails(409, "CONFLICT")
    const unknown = "0190a6a0-0000-7000-8000-000000000000"
    expect(
      (await admin.post(`/auth/groups/${group.id}/members`, { userId: unknown })).fails(404, "RESOURCE_NOT_FOUND")
        .message
    )
      .toBe(`user ${unknown} not found`)
    const outsider = await admin.createUser()
    expect(
      (await admin.delete(`/auth/groups/${group.id}/members/${outsider.id}`)).fails(404, "RESOURCE_NOT_FOUND").message
    )
      .toContain("not a member")
    expect((await admin.get(`/auth/groups/not-an-id/members`)).fails(404, "RESOURCE_NOT_FOUND").message).toBe(
      "group not-an-id not found"
    )
  })
})

describe("resource authorizations", () => {
  it("grants to a user or a group, lists with filters, revokes", async () => {
    const admin = await (await givenTenant()).admin()
    const user = await admin.createUser()
    const group = await admin.createGroup()
    const toUser = (await admin.post("/auth/authorizations", {
      resourceType: "PROCESS_DEFINITION",
      resourceId: "order-process",
      permissions: ["READ", "CREATE_INSTANCE"],
      userId: user.id
    })).ok(201)
    expect(toUser).toMatchObject({
      resourceType: "PROCESS_DEFINITION",
      resourceId: "order-process",
      permissions: ["READ", "CREATE_INSTANCE"],
      userId: user.id,
      groupId: null
    })
    const toGroup =
      (await admin.post("/auth/authorizations", { resourceType: "TASK", permissions: ["ALL"], groupId: group.id })).ok(
        201
      )
    expect(toGroup.resourceId).toBe("*")
    expect((await admin.get("/auth/authorizations")).ok().totalItems).toBe(2)
    expect((await admin.get(`/auth/authorizations?userId=${user.id}`)).ok().items.map((a: { id: string }) => a.id))
      .toEqual([toUser.id])
    expect((await admin.get("/auth/authorizations?resourceType=TASK")).ok().items.map((a: { id: string }) => a.id))
      .toEqual([toGroup.id])
    ;(await admin.delete(`/auth/authorizations/${toUser.id}`)).ok()
    ;(await admin.delete(`/auth/authorizations/${toUser.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    expect((await admin.get("/auth/authorizations")).ok().totalItems).toBe(1)
  })

  it("needs exactly one grantee that exists, a known resource type and permission", async () => {
    const admin = await (await givenTenant()).admin()
    const user = await admin.createUser()
    const group = await admin.createGroup()
    ;(await admin.post("/auth/authorizations", { resourceType: "TASK", permissions: ["READ"] })).fails(
      400,
      "VALIDATION_ERROR"
    )
    ;(await admin.post("/auth/authorizations", {
      resourceType: "TASK",
      permissions: ["READ"],
      userId: user.id,
      groupId: group.id
    }))
      .fails(400, "VALIDATION_ERROR")
    ;(await admin.post("/auth/authorizations", {
      resourceType: "TASK",
      permissions: ["READ"],
      userId: "0190a6a0-0000-7000-8000-000000000001"
    }))
      .fails(404, "RESOURCE_NOT_FOUND")
    const bad =
      (await admin.post("/auth/authorizations", { resourceType: "SPACESHIP", permissions: ["FLY"], userId: user.id }))
        .fails(400, "VALIDATION_ERROR")
    expect(bad.errors.map((e: { field: string }) => e.field).sort()).toEqual(["permissions[0]", "resourceType"])
  })
})

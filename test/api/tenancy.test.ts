// SERVICE.md Errors rule 1: another tenant's resource answers exactly like a missing one (404 naming kind and id).
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

describe("tenant isolation", () => {
  it("hides every resource of tenant A from an ADMIN of tenant B", async () => {
    const adminA = await (await givenTenant()).admin()
    const adminB = await (await givenTenant()).admin()
    const group = await adminA.createGroup("team-a")
    const user = await adminA.createUser()
    ;(await adminA.post(`/auth/groups/${group.id}/members`, { userId: user.id })).ok(201)
    const grant =
      (await adminA.post("/auth/authorizations", { resourceType: "TASK", permissions: ["READ"], userId: user.id })).ok(
        201
      )
    const invitation = (await adminA.post("/invitations", { email: "a@example.com", roles: ["TASK_USER"] })).ok(201)

    for (const path of ["/auth/users", "/auth/groups", "/auth/authorizations", "/invitations", "/audit-events"]) {
      expect((await adminB.get(path)).ok().totalItems, path).toBe(0)
    }
    const missing = "0190a6a0-0000-7000-8000-0000000000ff"
    const pairs: Array<[() => ReturnType<typeof adminB.get>, () => ReturnType<typeof adminB.get>, string]> = [
      [
        () => adminB.get(`/auth/groups/${group.id}/members`),
        () => adminB.get(`/auth/groups/${missing}/members`),
        "group"
      ],
      [
        () => adminB.post(`/auth/groups/${group.id}/members`, { userId: user.id }),
        () => adminB.post(`/auth/groups/${missing}/members`, { userId: user.id }),
        "group"
      ],
      [
        () => adminB.delete(`/auth/groups/${group.id}/members/${user.id}`),
        () => adminB.delete(`/auth/groups/${missing}/members/${user.id}`),
        "group"
      ],
      [
        () => adminB.delete(`/auth/authorizations/${grant.id}`),
        () => adminB.delete(`/auth/authorizations/${missing}`),
        "authorization"
      ],
      [
        () => adminB.delete(`/invitations/${invitation.id}`),
        () => adminB.delete(`/invitations/${missing}`),
        "invitation"
      ]
    ]
    for (const [foreign, absent, kind] of pairs) {
      const a = (await foreign()).fails(404, "RESOURCE_NOT_FOUND")
      const b = (await absent()).fails(404, "RESOURCE_NOT_FOUND")
      expect(a.message).toMatch(new RegExp(`^${kind} \\S+ not found$`))
      expect(a.message.replace(/\S+ not found$/, "")).toBe(b.message.replace(/\S+ not found$/, ""))
    }
    // B cannot use A's user in its own group or grant either
    const groupB = await adminB.createGroup()
    ;(await adminB.post(`/auth/groups/${groupB.id}/members`, { userId: user.id })).fails(404, "RESOURCE_NOT_FOUND")
    ;(await adminB.post("/auth/authorizations", { resourceType: "TASK", permissions: ["READ"], userId: user.id }))
      .fails(404, "RESOURCE_NOT_FOUND")
    // and A's data is untouched
    expect((await adminA.get(`/auth/groups/${group.id}/members`)).ok().totalItems).toBe(1)
    expect((await adminA.get("/invitations")).ok().totalItems).toBe(1)
  })
})

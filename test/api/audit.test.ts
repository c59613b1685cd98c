// One audit event per state-changing call, written by middleware; GET /audit-events is ADMIN only, paged, filtered.
import { describe, expect, it } from "vitest"
import { anonymous, givenTenant, uniqueName } from "../support/Scenario.ts"

describe("audit log", () => {
  it("records every state-changing call with method, path, resource, sub, tenant, status and correlation id", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin("auditor-1")
    const group = (await admin.call("POST", "/auth/groups", {
      body: { name: "audited" },
      headers: { "x-correlation-id": "corr-1" }
    })).ok(201)
    ;(await admin.post("/auth/groups", { name: "audited" })).fails(409, "CONFLICT")
    ;(await admin.get("/auth/groups")).ok() // a read: not audited
    const events = (await admin.get("/audit-events")).ok()
    expect(events.totalItems).toBe(2)
    const [newest, oldest] = events.items
    expect(oldest).toMatchObject({
      actor: "auditor-1",
      tenantId: tenant.id,
      method: "POST",
      path: "/api/v1/auth/groups",
      resourceKind: "groups",
      resourceId: group.id,
      status: 201,
      correlationId: "corr-1"
    })
    expect(newest).toMatchObject({ status: 409, method: "POST" })
    expect(Date.parse(newest.occurredAt)).toBeGreaterThanOrEqual(Date.parse(oldest.occurredAt))
  })

  it("filters by actor, resource, method and time range, and pages newest first", async () => {
    const tenant = await givenTenant()
    const a = await tenant.admin("alice")
    const b = await tenant.admin("bob")
    const group = await a.createGroup()
    const user = await a.createUser()
    await b.post(`/auth/groups/${group.id}/members`, { userId: user.id })
    await b.delete(`/auth/groups/${group.id}/members/${user.id}`)
    expect((await a.get("/audit-events?actor=bob")).ok().items.map((e: { method: string }) => e.method)).toEqual([
      "DELETE",
      "POST"
    ])
    expect((await a.get(`/audit-events?resourceKind=groups&resourceId=${group.id}`)).ok().totalItems).toBe(3)
    expect((await a.get("/audit-events?method=DELETE")).ok().totalItems).toBe(1)
    const page = (await a.get("/audit-events?size=2&page=1")).ok()
    expect(page).toMatchObject({ page: 1, size: 2, totalItems: 4, totalPages: 2 })
    const future = new Date(tenant.app.clock.nowMillis() + 60_000).toISOString()
    expect((await a.get(`/audit-events?from=${future}`)).ok().totalItems).toBe(0)
    expect((await a.get(`/audit-events?to=${future}`)).ok().totalItems).toBe(4)
    ;(await a.get("/audit-events?from=yesterday")).fails(400, "VALIDATION_ERROR")
  })

  it("records refused calls too (403), and an accepted invitation under the invitee", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin()
    const worker = await tenant.taskUser("worker-7")
    ;(await worker.post("/auth/groups", { name: "nope" })).fails(403, "FORBIDDEN")
    const invitation = (await admin.post("/invitations", { email: "x@example.com", roles: ["TASK_USER"] })).ok(201)
    const username = uniqueName("joiner")
    ;(await (await anonymous()).post("/invitations/accept", {
      token: invitation.token,
      username,
      password: "password-123"
    })).ok(201)
    const events = (await admin.get("/audit-events")).ok().items
    expect(events.find((e: { actor: string }) => e.actor === "worker-7")).toMatchObject({
      status: 403,
      path: "/api/v1/auth/groups"
    })
    expect(events.find((e: { actor: string }) => e.actor === username)).toMatchObject({
      status: 201,
      path: "/api/v1/invitations/accept",
      resourceKind: "invitations",
      resourceId: invitation.id
    })
  })
})

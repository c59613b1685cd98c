// The one authorization service later areas call: grants narrow access per resource (see ResourceAuthorizations.ts).
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Principal } from "../../src/auth/Principal.ts"
import { ResourceAuthorizations } from "../../src/services/identity/ResourceAuthorizations.ts"
import { givenTenant } from "../support/Scenario.ts"

describe("resource authorizations are enforced by one service", () => {
  it("leaves a resource without grants open, then admits only grantees (user or group) with the permission, and ADMINs", async () => {
    const tenant = await givenTenant()
    const admin = await tenant.admin()
    const alice = await admin.createUser({ roles: ["PROCESS_OWNER"] })
    const bob = await admin.createUser({ roles: ["PROCESS_OWNER"] })
    const carol = await admin.createUser({ roles: ["PROCESS_OWNER"] })
    const group = await admin.createGroup()
    ;(await admin.post(`/auth/groups/${group.id}/members`, { userId: carol.id })).ok(201)
    const as = (username: string, roles: Principal["roles"] = ["PROCESS_OWNER"]): Principal => ({
      sub: username,
      tenantId: tenant.id,
      roles,
      source: "local"
    })
    const check = (principal: Principal, resourceId: string, permission: "READ" | "CREATE_INSTANCE") =>
      tenant.app.runtime.runPromise(
        Effect.flatMap(
          ResourceAuthorizations,
          (service) => service.isPermitted(principal, "PROCESS_DEFINITION", resourceId, permission)
        )
      )

    expect(await check(as(bob.username), "invoice", "CREATE_INSTANCE")).toBe(true)
    ;(await admin.post("/auth/authorizations", {
      resourceType: "PROCESS_DEFINITION",
      resourceId: "invoice",
      permissions: ["CREATE_INSTANCE"],
      userId: alice.id
    })).ok(201)
    expect(await check(as(alice.username), "invoice", "CREATE_INSTANCE")).toBe(true)
    expect(await check(as(alice.username), "invoice", "READ")).toBe(false)
    expect(await check(as(bob.username), "invoice", "CREATE_INSTANCE")).toBe(false)
    expect(await check(as("someone", ["ADMIN"]), "invoice", "CREATE_INSTANCE")).toBe(true)
    expect(await check(as(bob.username), "other-process", "CREATE_INSTANCE")).toBe(true)
    ;(await admin.post("/auth/authorizations", {
      resourceType: "PROCESS_DEFINITION",
      permissions: ["ALL"],
      groupId: group.id
    })).ok(201)
    expect(await check(as(carol.username), "other-process", "READ")).toBe(true)
    expect(await check(as(bob.username), "other-process", "READ")).toBe(false)

    const denied = await tenant.app.runtime.runPromiseExit(
      Effect.flatMap(
        ResourceAuthorizations,
        (service) => service.require(as(bob.username), "PROCESS_DEFINITION", "invoice", "CREATE_INSTANCE")
      )
    )
    expect(denied._tag).toBe("Failure")
    expect(JSON.stringify(denied)).toMatch(/Forbidden/)
  })
})

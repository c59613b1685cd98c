// Tenant scoping by structure (the "engine's house" issue): the authentication middleware provides the caller's
// tenant (CurrentTenant) and the data access reads it from there, so no handler passes a tenant id by hand. A handler
// that names `tenantId` is either not converted yet or has a reason; both are listed here, and a listed file that no
// longer names it must leave the list (so the list only shrinks).
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const HANDLERS = join(process.cwd(), "src", "http", "handlers")

/** Handler files allowed to name `tenantId`, with the reason. */
const NAMES_A_TENANT: Record<string, string> = {
  "InvitationsHandlers.ts": "accepting an invitation is not authenticated: the tenant is the invitation's"
}

/** The handler files that name `tenantId` anywhere (code or comment). */
const handlersNamingATenant = (dir: string): Array<string> =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .filter((name) => /tenantId/.test(readFileSync(join(dir, name), "utf8")))
    .sort()

describe("tenant scoping", () => {
  it("no handler passes a tenant id by hand (but the listed ones)", () => {
    const naming = handlersNamingATenant(HANDLERS)
    expect(naming.filter((name) => !(name in NAMES_A_TENANT)), "read the tenant from CurrentTenant in the service")
      .toEqual([])
    expect(
      Object.keys(NAMES_A_TENANT).filter((name) => !naming.includes(name)),
      "no longer names tenantId: take it off NAMES_A_TENANT"
    ).toEqual([])
  })
})

// GET /v3/api-docs and /swagger-ui.html: public, outside the envelope, generated from the HttpApi definitions, with
// each operation's required roles from the one AccessPolicy table.
import { describe, expect, it } from "vitest"
import { ACCESS_POLICY } from "../../src/http/AccessPolicy.ts"
import { send } from "../support/Client.ts"
import { testApp } from "../support/TestApp.ts"

const FOUNDATION_ROUTES = [
  "GET /api/v1/health",
  "GET /api/v1/auth/config",
  "POST /api/v1/auth/login",
  "GET /api/v1/auth/users",
  "POST /api/v1/auth/users",
  "GET /api/v1/auth/groups",
  "POST /api/v1/auth/groups",
  "GET /api/v1/auth/groups/{id}/members",
  "POST /api/v1/auth/groups/{id}/members",
  "DELETE /api/v1/auth/groups/{id}/members/{userId}",
  "GET /api/v1/auth/authorizations",
  "POST /api/v1/auth/authorizations",
  "DELETE /api/v1/auth/authorizations/{id}",
  "GET /api/v1/invitations",
  "POST /api/v1/invitations",
  "POST /api/v1/invitations/accept",
  "DELETE /api/v1/invitations/{id}",
  "GET /api/v1/audit-events"
]

describe("OpenAPI document", () => {
  it("is public JSON with every route, its schemas, the bearer scheme and the envelope", async () => {
    const app = await testApp()
    const reply = await send(app.baseUrl, "GET", "/v3/api-docs")
    expect(reply.status).toBe(200)
    const spec = reply.body
    expect(spec.openapi).toMatch(/^3\./)
    const operations = Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.keys(item).filter((m) => ["get", "post", "put", "delete", "patch"].includes(m)).map((m) =>
        `${m.toUpperCase()} ${path}`
      )
    )
    expect(operations).toEqual(expect.arrayContaining(FOUNDATION_ROUTES))
    expect(JSON.stringify(spec.components.securitySchemes)).toMatch(/bearer/i)
    const create = spec.paths["/api/v1/auth/users"].post
    expect(create.requestBody.content["application/json"].schema).toBeDefined()
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "409"]))
    expect(JSON.stringify(create.responses["201"])).toMatch(/success|Envelope|#\/components/)
    expect(create.security.length).toBeGreaterThan(0)
    expect(JSON.stringify(spec.components.schemas)).toContain("correlationId")
  })

  it("shows the required roles of every operation, from the access policy", async () => {
    const spec = (await send((await testApp()).baseUrl, "GET", "/v3/api-docs")).body
    for (const item of Object.values(spec.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item).filter((o) => typeof o === "object" && o.operationId)) {
        expect(ACCESS_POLICY[operation.operationId], operation.operationId).toBeDefined()
        expect(operation["x-required-roles"], operation.operationId).toBeDefined()
      }
    }
    expect(spec.paths["/api/v1/auth/users"].get["x-required-roles"]).toEqual(["ADMIN"])
    expect(spec.paths["/api/v1/auth/login"].post["x-required-roles"]).toEqual([])
    expect(spec.paths["/api/v1/auth/users"].get.description).toMatch(/Requires role ADMIN/)
  })

  it("has an access policy entry for exactly the operations the API has", async () => {
    const spec = (await send((await testApp()).baseUrl, "GET", "/v3/api-docs")).body
    const ids = Object.values(spec.paths as Record<string, Record<string, any>>)
      .flatMap((item) => Object.values(item).map((o) => o?.operationId).filter(Boolean))
    expect(new Set(ids)).toEqual(new Set(Object.keys(ACCESS_POLICY)))
  })
})

describe("API explorer", () => {
  it("serves an interactive page that loads nothing from the internet", async () => {
    const app = await testApp()
    const response = await fetch(`${app.baseUrl}/swagger-ui.html`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/html/)
    const html = await response.text()
    expect(html).toMatch(/swagger/i)
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i)
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i)
  })
})

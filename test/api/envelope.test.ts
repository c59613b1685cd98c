// SERVICE.md "Response envelope" and "Errors": every answer under /api/v1 is an envelope, whatever went wrong.
import { describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"
import { anonymous, givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

describe("response envelope", () => {
  it("wraps a success in {success, message, timestamp, data}", async () => {
    const admin = await (await givenTenant()).admin()
    const reply = await admin.get("/auth/users")
    const data = reply.ok(200)
    expect(data).toMatchObject({ items: [], page: 0, size: 20, totalItems: 0, totalPages: 0 })
  })

  it("echoes X-Correlation-Id unchanged, on success and on failure", async () => {
    const app = await testApp()
    const ok = await send(app.baseUrl, "GET", "/api/v1/health", { headers: { "x-correlation-id": "trace-abc-123" } })
    expect(ok.headers.get("x-correlation-id")).toBe("trace-abc-123")
    const failed = await send(app.baseUrl, "GET", "/api/v1/auth/users", {
      headers: { "x-correlation-id": "trace-xyz" }
    })
    expect(failed.fails(401, "UNAUTHORIZED").correlationId).toBe("trace-xyz")
  })

  it("generates a correlation id when none is sent, different per request", async () => {
    const app = await testApp()
    const a = await send(app.baseUrl, "GET", "/api/v1/health")
    const b = await send(app.baseUrl, "GET", "/api/v1/nowhere")
    expect(a.headers.get("x-correlation-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(b.fails(404, "RESOURCE_NOT_FOUND").correlationId).toBe(b.headers.get("x-correlation-id"))
    expect(a.headers.get("x-correlation-id")).not.toBe(b.headers.get("x-correlation-id"))
  })

  it("answers malformed JSON with 400 BAD_REQUEST", async () => {
    const admin = await (await givenTenant()).admin()
    const reply = await admin.call("POST", "/auth/users", { rawBody: "{\"username\": \"x\"," })
    expect(reply.fails(400, "BAD_REQUEST").message).toMatch(/malformed JSON/)
  })

  it("answers a schema mismatch with 400 VALIDATION_ERROR listing every faulty field", async () => {
    const admin = await (await givenTenant()).admin()
    const reply = await admin.post("/auth/users", { username: "ok-name", password: "short", roles: ["WIZARD"] })
    const body = reply.fails(400, "VALIDATION_ERROR")
    const fields = body.errors.map((e: { field: string }) => e.field)
    expect(fields).toEqual(expect.arrayContaining(["password", "roles[0]"]))
    expect(body.message).toContain("password")
    const missing = (await admin.post("/auth/users", { password: "long-enough-1" })).fails(400, "VALIDATION_ERROR")
    expect(missing.errors).toEqual(expect.arrayContaining([
      { field: "username", message: "is required", code: "REQUIRED" },
      { field: "roles", message: "is required", code: "REQUIRED" }
    ]))
  })

  it("answers invalid query parameters with 400 VALIDATION_ERROR naming them", async () => {
    const admin = await (await givenTenant()).admin()
    const body = (await admin.get("/auth/users?page=-1&size=5000")).fails(400, "VALIDATION_ERROR")
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["page", "size"])
  })

  it("answers an unknown route with 404 and a wrong method with 405, both enveloped", async () => {
    const admin = await (await givenTenant()).admin()
    expect((await admin.get("/no-such-thing")).fails(404, "RESOURCE_NOT_FOUND").message).toContain(
      "/api/v1/no-such-thing"
    )
    const wrong = await admin.call("PATCH", "/auth/users")
    expect(wrong.fails(405, "BAD_REQUEST").message).toMatch(/PATCH.*allowed: GET, POST/)
    expect(wrong.headers.get("allow")).toBe("GET, POST")
  })

  it("answers an oversized body with 413 in the envelope", async () => {
    const admin = await (await givenTenant()).admin()
    const big = JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) })
    const reply = await admin.call("POST", "/auth/groups", { rawBody: big })
    expect(reply.fails(413, "BAD_REQUEST").message).toMatch(/exceeds the limit/)
  })

  it("answers an unsupported content type with 415 in the envelope", async () => {
    const admin = await (await givenTenant()).admin()
    const reply = await admin.call("POST", "/auth/groups", { rawBody: "name=x", contentType: "text/plain" })
    reply.fails(415, "BAD_REQUEST")
  })

  it("answers a defect with 500 INTERNAL_ERROR and no internals in the body", async () => {
    const reply = await (await anonymous()).get("/test-probes/defect")
    const body = reply.fails(500, "INTERNAL_ERROR")
    const text = JSON.stringify(body)
    expect(text).not.toMatch(/secret internal detail|postgres:|at .*\.ts/)
    expect(body.errors).toEqual([])
  })

  it("answers work interrupted under the request (not by the client) with a 500 that says it may have taken effect", async () => {
    const reply = await (await anonymous()).get("/test-probes/interrupted")
    const body = reply.fails(500, "INTERNAL_ERROR")
    // not a 503: the load balancer resends those, and this one may have been done
    expect(reply.headers.get("retry-after")).toBeNull()
    expect(body.message).toMatch(/interrupted.*may or may not have taken effect.*Idempotency-Key/)
  })
})

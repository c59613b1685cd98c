// The access line (ACCESS_LOG): by default only failed requests (status 400 and up) get one, with the correlation id
// the client quotes; `all` logs every request, `off` none. Read from the app's own log lines, through HTTP.
import { describe, expect, it } from "vitest"
import type { AccessLog } from "../../src/config.ts"
import { send } from "../support/Client.ts"
import { bootApp } from "../support/TestApp.ts"

/** Sends a request that succeeds and two that fail; answers the access lines written for each. */
const accessLinesWith = async (accessLog: AccessLog) => {
  const lines: Array<string> = []
  const app = await bootApp({ logLevel: "Info", accessLog }, { logLine: (line) => lines.push(line) })
  try {
    const ok = await send(app.baseUrl, "GET", "/api/v1/health")
    const unauthenticated = await send(app.baseUrl, "GET", "/api/v1/process-instances")
    const unknown = await send(app.baseUrl, "GET", "/api/v1/no-such-route")
    expect([ok.status, unauthenticated.status, unknown.status]).toEqual([200, 401, 404])
    // The edge writes the line before it hands the response on.
    const linesOf = (reply: { readonly headers: Headers }) =>
      lines.filter((line) => line.includes(`correlationId=${reply.headers.get("x-correlation-id")}`))
    return { ok: linesOf(ok), unauthenticated: linesOf(unauthenticated), unknown: linesOf(unknown) }
  } finally {
    await app.runtime.dispose()
  }
}

describe("access lines (ACCESS_LOG)", () => {
  it("by default logs a failed request with its status and correlation id, and no line for a success", async () => {
    const lines = await accessLinesWith("failures")
    expect(lines.ok).toEqual([])
    expect(lines.unauthenticated).toHaveLength(1)
    expect(lines.unauthenticated[0]).toContain(`message="GET /api/v1/process-instances 401"`)
    expect(lines.unknown).toHaveLength(1)
    expect(lines.unknown[0]).toContain(`message="GET /api/v1/no-such-route 404"`)
  })

  it("logs every request with ACCESS_LOG=all, none with off", async () => {
    const all = await accessLinesWith("all")
    expect(all.ok).toHaveLength(1)
    expect(all.ok[0]).toContain(`message="GET /api/v1/health 200"`)
    expect(all.ok[0]).toMatch(/durationMs=\d/)
    expect(all.unauthenticated).toHaveLength(1)
    expect(all.unknown).toHaveLength(1)
    const off = await accessLinesWith("off")
    expect(off).toEqual({ ok: [], unauthenticated: [], unknown: [] })
  })
})

// A request's audit record (http/RequestAudit.ts): carried by the request's first instance commit, or written by the
// edge after the response; exactly one record per request, and it says what the response did.
import { Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { newRequestState } from "../../src/auth/RequestState.ts"
import { makeRequestAudit } from "../../src/http/RequestAudit.ts"
import type { AuditLogShape, AuditRecord } from "../../src/services/identity/AuditLog.ts"

const now = "2026-11-28T10:00:00.000Z"

const fixture = (method = "POST", path = "/api/v1/messages") => {
  const recorded: Array<AuditRecord> = []
  const corrected: Array<{ id: string; record: AuditRecord }> = []
  const log: AuditLogShape = {
    record: (record) => Effect.sync(() => void recorded.push(record)),
    correct: (id, record) => Effect.sync(() => void corrected.push({ id, record })),
    list: () => Effect.die("not used")
  }
  const state = newRequestState("corr-9")
  state.principal = { sub: "alice", tenantId: "t1", roles: ["ADMIN"] } as unknown as typeof state.principal
  state.successStatus = 202
  return { recorded, corrected, state, audit: makeRequestAudit(log, method, path, state) }
}

describe("a request's audit record", () => {
  it("is handed once to a commit, and the edge then writes nothing", () => {
    const { audit, recorded, corrected } = fixture()
    const row = audit.take("t1", "i1", false, now)
    expect(row).toMatchObject({
      tenant_id: "t1",
      actor: "alice",
      status: 202,
      path: "/api/v1/messages",
      occurred_at: now
    })
    expect(audit.take("t1", "i2", false, now)).toBeUndefined()
    audit.settle(true)
    Effect.runSync(audit.finish(202))
    expect(recorded).toEqual([])
    expect(corrected).toEqual([])
  })

  it("goes back to the edge when the commit wrote nothing, and can be taken again until then", () => {
    const { audit, recorded } = fixture()
    expect(audit.take("t1", "i1", false, now)).toBeDefined()
    audit.settle(false)
    expect(audit.take("t1", "i1", false, now)).toBeDefined()
    audit.settle(false)
    Effect.runSync(audit.finish(409))
    expect(recorded).toMatchObject([{ status: 409, tenantId: "t1", correlationId: "corr-9" }])
    expect(audit.take("t1", "i1", false, now)).toBeUndefined() // the response is out: too late
  })

  it("is corrected when the response ended with another status than the endpoint's success", () => {
    const { audit, recorded, corrected } = fixture()
    const row = audit.take("t1", "i1", false, now)!
    audit.settle(true)
    Effect.runSync(audit.finish(500))
    expect(recorded).toEqual([])
    expect(corrected).toMatchObject([{ id: row["id"], record: { status: 500, path: "/api/v1/messages" } }])
  })

  it("names the instance a start creates, and is not corrected when the handler names the same one", () => {
    const { audit, corrected, state } = fixture("POST", "/api/v1/process-instances")
    state.successStatus = 201
    expect(audit.take("t1", "i7", true, now)).toMatchObject({ resource_kind: "process-instances", resource_id: "i7" })
    audit.settle(true)
    state.resourceKind = "process-instances"
    state.resourceId = "i7"
    Effect.runSync(audit.finish(201))
    expect(corrected).toEqual([])
  })

  it("is not offered for another tenant's instance, an unknown success status, or a call that is not audited", () => {
    expect(fixture().audit.take("t2", "i1", false, now)).toBeUndefined()
    const unknown = fixture()
    unknown.state.successStatus = undefined
    expect(unknown.audit.take("t1", "i1", false, now)).toBeUndefined()
    expect(fixture("GET", "/api/v1/messages").audit.take("t1", "i1", false, now)).toBeUndefined()
    expect(fixture("POST", "/api/v1/auth/login").audit.take("t1", "i1", false, now)).toBeUndefined()
  })

  it("waits for a commit still under way before deciding who writes it", async () => {
    const { audit, recorded } = fixture()
    audit.take("t1", "i1", false, now)
    const finishing = Effect.runFork(audit.finish(202))
    await Promise.resolve()
    expect(recorded).toEqual([])
    audit.settle(false)
    await Effect.runPromise(Fiber.join(finishing))
    expect(recorded).toMatchObject([{ status: 202 }])
  })
})

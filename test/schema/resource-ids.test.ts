// Path ids (src/schema/ResourceIds.ts): a UUID of any version is an id; anything else names nothing, and the 404 says
// which kind of resource it did not name.
import { Effect, Exit, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { JobId, parseId, ProcessInstanceId, refusedPathIds } from "../../src/schema/ResourceIds.ts"

describe("resource ids", () => {
  it("accept any UUID shape, refuse the rest", () => {
    expect(Schema.is(JobId)("0190a6a0-0000-7000-8000-000000000001")).toBe(true)
    expect(Schema.is(JobId)("00000000-0000-0000-0000-000000000000")).toBe(true)
    expect(Schema.is(JobId)("not-a-uuid")).toBe(false)
  })

  it("parseId answers the 404 of the id's kind", () => {
    const exit = Effect.runSyncExit(parseId(ProcessInstanceId)("nope"))
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("process instance nope not found")
    expect(Effect.runSync(parseId(ProcessInstanceId)("0190a6a0-0000-7000-8000-000000000001"))).toBe(
      "0190a6a0-0000-7000-8000-000000000001"
    )
  })

  it("names the refused path ids of a decoding issue, and only those", () => {
    const params = Schema.Struct({ id: ProcessInstanceId, eventSeq: Schema.Int, jobId: JobId })
    const exit = Schema.decodeUnknownExit(params)({ id: "x", eventSeq: 1.5, jobId: "y" }, { errors: "all" })
    if (!Exit.isFailure(exit)) throw new Error("expected a failure")
    const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
    if (error === undefined || error._tag !== "Fail") throw new Error("expected a schema error")
    expect(refusedPathIds(error.error.issue)).toEqual([
      { param: "id", kind: "process instance" },
      { param: "jobId", kind: "job" }
    ])
  })
})

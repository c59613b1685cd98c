// The service reads request bodies as sent: one in a content coding (gzip, ...) is a 415 that says so and names what
// is taken (Accept-Encoding: identity), not a 400 about the compressed bytes.
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

describe("Content-Encoding", () => {
  it("a gzipped body is a 415 naming the encoding; identity, or none, is read as usual", async () => {
    const owner = await (await givenTenant()).owner()
    const body = JSON.stringify({ messageName: "encoded" })
    for (const encoding of ["gzip", "br, gzip"]) {
      const refused = await owner.call("POST", "/messages", {
        rawBody: gzipSync(body),
        headers: { "content-encoding": encoding }
      })
      expect(refused.fails(415, "BAD_REQUEST").errors[0]).toMatchObject({
        field: "content-encoding",
        code: "UNSUPPORTED_ENCODING"
      })
      expect(refused.headers.get("accept-encoding")).toBe("identity")
    }
    ;(await owner.call("POST", "/messages", { rawBody: body, headers: { "content-encoding": "identity" } })).ok(202)
    ;(await owner.call("POST", "/messages", { rawBody: body })).ok(202)
  })
})

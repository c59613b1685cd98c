import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { runTck } from "../../src/decision/tck/TckRunner.ts"
import { conformanceKit } from "../support/ConformanceKit.ts"
import { httpFolderRunner } from "../support/TckHttp.ts"
import { testApp } from "../support/TestApp.ts"

// The second ratchet: the DMN TCK through the REST API (import by POST /decisions/import, evaluation by name). The
// figure was written by `node scripts/dmn-conformance.ts --http --record`, never by hand.
const baseline = JSON.parse(fs.readFileSync(new URL("./tck-http-baseline.json", import.meta.url), "utf8")) as {
  total: { passed: number }
  approximate?: number
  rounded?: number
}

const kit = conformanceKit("dmn-tck", "DMN_TCK_DIR")

describe.runIf(kit.runs)("DMN TCK conformance over HTTP", () => {
  it("passes at least the recorded number of result checks", async () => {
    const root = kit.folder
    expect(fs.existsSync(root), `DMN TCK not found at ${root}`).toBe(true)
    const report = await runTck(root, httpFolderRunner(await testApp()))
    expect(report.total.passed).toBeGreaterThanOrEqual(baseline.total.passed)
    // Exact passes may not turn into passes within the number tolerance only.
    const approximate = report.outcomes.filter((o) => o.approximate).length
    expect(approximate).toBeLessThanOrEqual(baseline.approximate ?? Infinity)
    // Nor into passes with fewer digits than ours (the kit rounds): both kinds together may not grow either.
    const rounded = report.outcomes.filter((o) => o.rounded).length
    expect(approximate + rounded).toBeLessThanOrEqual((baseline.approximate ?? Infinity) + (baseline.rounded ?? 0))
  }, 300_000)
})

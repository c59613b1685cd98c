import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { runTck } from "../../src/decision/tck/TckRunner.ts"
import { conformanceKit } from "../support/ConformanceKit.ts"

// The ratchet: the figure was written by `node scripts/dmn-conformance.ts --record`, never by hand.
const baseline = JSON.parse(fs.readFileSync(new URL("./tck-baseline.json", import.meta.url), "utf8")) as {
  total: { passed: number }
  approximate?: number
  rounded?: number
}

const kit = conformanceKit("dmn-tck", "DMN_TCK_DIR")

describe.runIf(kit.runs)("DMN TCK conformance", () => {
  it("passes at least the recorded number of result checks", async () => {
    // Under CI a missing kit fails here rather than passing silently.
    const root = kit.folder
    expect(fs.existsSync(root), `DMN TCK not found at ${root}`).toBe(true)
    const report = await runTck(root)
    expect(report.total.passed).toBeGreaterThanOrEqual(baseline.total.passed)
    // Exact passes may not turn into passes within the number tolerance only.
    const approximate = report.outcomes.filter((o) => o.approximate).length
    expect(approximate).toBeLessThanOrEqual(baseline.approximate ?? Infinity)
    // Nor into passes with fewer digits than ours (the kit rounds): both kinds together may not grow either.
    const rounded = report.outcomes.filter((o) => o.rounded).length
    expect(approximate + rounded).toBeLessThanOrEqual((baseline.approximate ?? Infinity) + (baseline.rounded ?? 0))
  }, 120_000)
})

import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runTck } from "../../src/decision/TckRunner.ts";

// The ratchet: the figure was written by `node scripts/dmn-conformance.ts --record`, never by hand.
const baseline = JSON.parse(fs.readFileSync(new URL("./tck-baseline.json", import.meta.url), "utf8")) as { total: { passed: number } };

describe("DMN TCK conformance", () => {
  it("passes at least the recorded number of result checks", async () => {
    // shared/ sits beside the repository (as CI lays it out); a missing TCK must fail, not pass silently.
    const root = process.env["DMN_TCK_DIR"] ?? path.join(process.cwd(), "..", "shared", "conformance", "dmn-tck");
    expect(fs.existsSync(root), `DMN TCK not found at ${root}`).toBe(true);
    const report = await runTck(root);
    expect(report.total.passed).toBeGreaterThanOrEqual(baseline.total.passed);
  }, 120_000);
});

/**
 * DMN TCK conformance: `node scripts/dmn-conformance.ts [--verbose] [--record]`.
 * Prints passed / failed / errored per folder, per level and in total (one count per resultNode).
 * --record writes the totals to test/decision/tck-baseline.json (the ratchet the conformance test enforces).
 */
import * as fs from "node:fs"
import { count, runTck } from "../src/decision/TckRunner.ts"

import * as path from "node:path"

// The TCK lives in shared/ beside the repository (CI clones the repository next to it).
const TCK_ROOT = process.env["DMN_TCK_DIR"] ?? path.join(process.cwd(), "..", "shared", "conformance", "dmn-tck")
const args = new Set(process.argv.slice(2))
const started = performance.now()
const report = await runTck(TCK_ROOT)
const folders = [...new Set(report.outcomes.map((o) => o.folder))]
for (const folder of folders) {
  const t = count(report.outcomes.filter((o) => o.folder === folder))
  console.log(`${folder}: passed ${t.passed}, failed ${t.failed}, errored ${t.errored}`)
  if (args.has("--verbose")) {
    for (const o of report.outcomes.filter((x) => x.folder === folder && x.status !== "passed")) {
      console.log(`  ${o.status} ${o.testCase} ${o.resultNode}: ${o.reason ?? ""}`)
    }
  }
}
for (const [level, t] of Object.entries(report.byLevel)) {
  console.log(`${level}: passed ${t.passed}, failed ${t.failed}, errored ${t.errored}`)
}
const t = report.total
const all = t.passed + t.failed + t.errored
console.log(
  `TOTAL: passed ${t.passed}/${all} (${
    ((100 * t.passed) / Math.max(all, 1)).toFixed(1)
  }%), failed ${t.failed}, errored ${t.errored} in ${((performance.now() - started) / 1000).toFixed(1)} s`
)
if (args.has("--record")) {
  fs.writeFileSync(
    new URL("../test/decision/tck-baseline.json", import.meta.url),
    JSON.stringify({ total: report.total, byLevel: report.byLevel }, null, 2) + "\n"
  )
  console.log("recorded test/decision/tck-baseline.json")
}

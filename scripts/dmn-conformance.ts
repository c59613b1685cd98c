/**
 * DMN TCK conformance: `node scripts/dmn-conformance.ts [--http] [--verbose] [--record]`.
 * Prints passed / failed / errored per folder, per level and in total (one count per resultNode).
 * --http runs the kit through the REST API of an app started in-process (test/support/TckHttp.ts) instead of calling
 * the evaluator directly.
 * --record writes the totals to test/decision/tck-baseline.json (with --http: tck-http-baseline.json), the ratchets
 * the conformance tests enforce: passes may not fall, passes only within the kit runners' number tolerance
 * (`approximate`: the kit's number differs from ours in a digit it states) may not grow, nor may those together with
 * the passes where the kit states fewer digits than ours, all of them ours rounded (`rounded`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { count, runTck } from "../src/decision/tck/TckRunner.ts"
import { httpFolderRunner } from "../test/support/TckHttp.ts"
import { bootApp } from "../test/support/TestApp.ts"

// The TCK lives in shared/ beside the repository (CI clones the repository next to it).
const TCK_ROOT = process.env["DMN_TCK_DIR"] ?? path.join(process.cwd(), "..", "shared", "conformance", "dmn-tck")
const args = new Set(process.argv.slice(2))
const http = args.has("--http")
const started = performance.now()
const app = http ? await bootApp() : undefined
const report = await runTck(TCK_ROOT, app === undefined ? undefined : httpFolderRunner(app))
const folders = [...new Set(report.outcomes.map((o) => o.folder))]
for (const folder of folders) {
  const t = count(report.outcomes.filter((o) => o.folder === folder))
  console.log(`${folder}: passed ${t.passed}, failed ${t.failed}, errored ${t.errored}`)
  if (args.has("--verbose")) {
    const listed = report.outcomes.filter((x) =>
      x.folder === folder && (x.status !== "passed" || x.approximate || x.rounded)
    )
    for (const o of listed) {
      const label = o.approximate ? "approximate" : o.rounded ? "rounded" : o.status
      console.log(`  ${label} ${o.testCase} ${o.resultNode}: ${o.reason ?? ""}`)
    }
  }
}
for (const [level, t] of Object.entries(report.byLevel)) {
  console.log(`${level}: passed ${t.passed}, failed ${t.failed}, errored ${t.errored}`)
}
const t = report.total
const all = t.passed + t.failed + t.errored
const approximate = report.outcomes.filter((o) => o.approximate).length
const rounded = report.outcomes.filter((o) => o.rounded).length
console.log(
  `TOTAL${http ? " (HTTP)" : ""}: passed ${t.passed}/${all} (${
    ((100 * t.passed) / Math.max(all, 1)).toFixed(1)
  }%; ${rounded} with every digit the kit states, which rounds ours; ${approximate} only within the kit runners' number tolerance 1e-8), failed ${t.failed}, errored ${t.errored} in ${
    ((performance.now() - started) / 1000).toFixed(1)
  } s`
)
if (args.has("--record")) {
  const file = http ? "tck-http-baseline.json" : "tck-baseline.json"
  fs.writeFileSync(
    new URL(`../test/decision/${file}`, import.meta.url),
    JSON.stringify({ total: report.total, approximate, rounded, byLevel: report.byLevel }, null, 2) + "\n"
  )
  console.log(`recorded test/decision/${file}`)
}
await app?.runtime.dispose()
process.exit(0)

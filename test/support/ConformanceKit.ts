// Where the conformance material (../shared/conformance) is, and whether its absence may skip a suite. A plain clone on
// a fresh machine has no shared/ beside it: its suites skip with a message. CI (CI=true, as .ci/run runs) lays shared/
// out beside the clone, so there a missing kit fails instead of passing silently.
import { existsSync } from "node:fs"
import { join } from "node:path"

export interface ConformanceKit {
  readonly folder: string
  readonly present: boolean
  /** True when the suite must run: the kit is here, or CI requires it (then a missing kit fails the suite). */
  readonly runs: boolean
}

export const conformanceKit = (name: string, envOverride: string): ConformanceKit => {
  const folder = process.env[envOverride] ?? join(process.cwd(), "..", "shared", "conformance", name)
  const present = existsSync(folder)
  const required = process.env["CI"] === "true" || process.env["REQUIRE_CONFORMANCE"] === "1"
  if (!present && !required) {
    console.warn(
      `conformance kit ${name} not found at ${folder}: its suite is skipped (set ${envOverride}, or run .ci/run)`
    )
  }
  return { folder, present, runs: present || required }
}

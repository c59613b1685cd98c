// The BPMN MIWG reference models (../shared/conformance/bpmn-miwg): each must either compile or be refused with
// problems naming elements — never a crash or a hang. Prints which ones compile.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"
import { conformanceKit } from "../support/ConformanceKit.ts"

const kit = conformanceKit("bpmn-miwg", "MIWG_DIR")
const folder = kit.folder

describe.runIf(kit.runs)("BPMN MIWG reference models", () => {
  it("compile, or are refused with every problem named", async () => {
    expect(existsSync(folder), `BPMN MIWG models not found at ${folder}`).toBe(true)
    const files = readdirSync(folder).filter((f) => f.endsWith(".bpmn")).sort()
    expect(files.length).toBeGreaterThan(0)
    const summary: Array<string> = []
    for (const file of files) {
      const read = await readBpmnXml(readFileSync(join(folder, file), "utf8"))
      const result = read.ok ? compileDraft(read.draft) : read
      if (result.ok) summary.push(`${file}: compiles`)
      else {
        expect(result.problems.length, file).toBeGreaterThan(0)
        for (const problem of result.problems) expect(problem.elementId, file).not.toBe("")
        summary.push(
          `${file}: refused (${
            [...new Set(result.problems.map((p) => p.message.split(":")[0]))].slice(0, 3).join("; ")
          })`
        )
      }
    }
    console.log(summary.join("\n"))
  })
})

// Compiling a JSON graph for core tests: the graph, or a thrown error listing every problem.
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../src/bpmn/JsonGraph.ts"
import type { ProcessGraph } from "../../src/bpmn/ProcessGraph.ts"

export const graphOf = (json: unknown): ProcessGraph => {
  const read = readJsonGraph(json)
  if (!read.ok) throw new Error(JSON.stringify(read.problems))
  const compiled = compileDraft(read.draft)
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
  return compiled.graph
}

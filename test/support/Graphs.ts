// Compiling a JSON graph or BPMN XML for core tests: the graph, or a thrown error listing every problem.
import { compileDraft } from "../../src/bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../src/bpmn/JsonGraph.ts"
import type { ProcessGraph } from "../../src/bpmn/ProcessGraph.ts"
import { readBpmnXml } from "../../src/bpmn/ReadBpmnXml.ts"

export const graphOf = (json: unknown): ProcessGraph => {
  const read = readJsonGraph(json)
  if (!read.ok) throw new Error(JSON.stringify(read.problems))
  const compiled = compileDraft(read.draft)
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
  return compiled.graph
}

/** Compiling BPMN XML: the compile result, or the reading's problems. */
export const compileXml = async (xml: string) => {
  const read = await readBpmnXml(xml)
  return read.ok ? compileDraft(read.draft) : { ok: false as const, problems: read.problems }
}

/** Compiling BPMN XML for core tests: the graph, or a thrown error listing every problem. */
export const graphOfXml = async (xml: string): Promise<ProcessGraph> => {
  const compiled = await compileXml(xml)
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
  return compiled.graph
}

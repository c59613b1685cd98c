// ProcessModels over the core's readers and compiler: every model problem becomes one entry of a 400
// VALIDATION_ERROR, with the element id in `field`.
import { Effect, Layer } from "effect"
import { compileDraft, type Draft } from "../../bpmn/CompileGraph.ts"
import { readJsonGraph } from "../../bpmn/JsonGraph.ts"
import type { Problem, ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import { readBpmnXml } from "../../bpmn/ReadBpmnXml.ts"
import { writeBpmnXml } from "../../bpmn/WriteBpmnXml.ts"
import { analyseVariables } from "../../engine/VariableAnalysis.ts"
import { ValidationError } from "../../schema/ApiErrors.ts"
import { type CompiledModel, ProcessModels } from "./ProcessModels.ts"

const invalid = (problems: ReadonlyArray<Problem>) =>
  new ValidationError({
    message: `the process model is invalid: ${problems.map((p) => `${p.elementId}: ${p.message}`).join("; ")}`,
    errors: problems.map((p) => ({ field: p.elementId, message: p.message, code: "INVALID_MODEL" }))
  })

const nodesOf = (graph: ProcessGraph) =>
  Object.values(graph.nodes).map((node) => ({ id: node.id, type: node.type, name: node.name }))

const compile = (draft: Draft) => {
  const compiled = compileDraft(draft)
  return compiled.ok ? Effect.succeed(compiled.graph) : Effect.fail(invalid(compiled.problems))
}

export const BpmnProcessModels = {
  layer: Layer.succeed(ProcessModels, {
    fromXml: Effect.fnUntraced(function*(xml) {
      const read = yield* Effect.promise(() => readBpmnXml(xml))
      if (!read.ok) return yield* invalid(read.problems)
      const graph = { ...yield* compile(read.draft), versionTag: read.versionTag }
      return { key: graph.key, name: graph.name, graph, nodes: nodesOf(graph), bpmnXml: xml } satisfies CompiledModel
    }),
    fromJson: Effect.fnUntraced(function*(json) {
      const read = readJsonGraph(json)
      if (!read.ok) return yield* invalid(read.problems)
      const graph = { ...yield* compile(read.draft), versionTag: read.versionTag }
      const bpmnXml = yield* Effect.promise(() => writeBpmnXml(graph))
      return { key: graph.key, name: graph.name, graph, nodes: nodesOf(graph), bpmnXml } satisfies CompiledModel
    }),
    analyseVariables: (graph) => analyseVariables(graph as ProcessGraph)
  })
}

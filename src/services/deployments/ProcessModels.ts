// The port through which deployments reach the BPMN model layer: compile XML or a JSON graph into the executable
// process graph (listing every problem when the model is invalid), and produce BPMN XML for JSON deployments.
import { Context, type Effect } from "effect"
import type { VariableAnalysis } from "../../engine/VariableAnalysis.ts"
import type { ValidationError } from "../../schema/ApiErrors.ts"

export interface ModelNode {
  readonly id: string
  readonly type: string
  readonly name: string | null
}

export interface CompiledModel {
  /** The process key (BPMN process id). */
  readonly key: string
  readonly name: string | null
  /** The executable graph, JSON-serialisable; stored with the deployment and handed to the engine. */
  readonly graph: unknown
  readonly nodes: ReadonlyArray<ModelNode>
  /** BPMN XML: as deployed, or generated from a JSON graph. */
  readonly bpmnXml: string
}

export interface ProcessModelsShape {
  readonly fromXml: (xml: string) => Effect.Effect<CompiledModel, ValidationError>
  readonly fromJson: (graph: unknown) => Effect.Effect<CompiledModel, ValidationError>
  /** Which variables each element reads and writes, and the warnings that follow (for a compiled graph). */
  readonly analyseVariables: (graph: unknown) => VariableAnalysis
}

export class ProcessModels extends Context.Service<ProcessModels, ProcessModelsShape>()("flowcore/ProcessModels") {}

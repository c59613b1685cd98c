// Static variable analysis of a process model (SERVICE.md "Testing and analysis").
import { Schema } from "effect"

export const AnalyseVariables = Schema.Struct({
  xml: Schema.optional(Schema.String).annotate({ description: "BPMN 2.0 XML (or give graph)" }),
  graph: Schema.optional(Schema.Unknown).annotate({ description: "a JSON graph, as POST /deployments takes" })
}).annotate({ identifier: "AnalyseVariables" })

export const VariableAnalysisResult = Schema.Struct({
  processKey: Schema.String,
  variables: Schema.Array(
    Schema.Struct({ name: Schema.String, readBy: Schema.Array(Schema.String), writtenBy: Schema.Array(Schema.String) })
  ),
  expectedInputs: Schema.Array(Schema.String).annotate({
    description: "read somewhere, written nowhere: what a start (or a worker) must supply"
  }),
  openResults: Schema.Array(Schema.String).annotate({
    description: "elements whose results (workers', people's, children's, decisions') the model cannot know"
  }),
  warnings: Schema.Array(Schema.Struct({
    elementId: Schema.String,
    variable: Schema.String,
    kind: Schema.Literals(["READ_NOT_WRITTEN", "WRITTEN_NOT_READ"]),
    message: Schema.String
  }))
}).annotate({ identifier: "VariableAnalysis" })

// Decisions (DMN decision tables and other boxed expressions), decision models, FEEL.
import { Schema } from "effect"
import { Created, PageQueryFields, Variables } from "./Common.ts"

export const DecisionFormat = Schema.Literals(["JSON_TABLE", "DMN_XML"]).annotate({ identifier: "DecisionFormat" })

export const Decision = Schema.Struct({
  id: Schema.String,
  key: Schema.String.annotate({
    description: "the DMN decision id, or the decision's name when it has no id; versions are counted per key"
  }),
  name: Schema.NullOr(Schema.String),
  version: Schema.Int,
  versionTag: Schema.optional(Schema.NullOr(Schema.String)).annotate({
    description: "the decision's zeebe:versionTag (a business rule task with bindingType=\"versionTag\" binds to it)"
  }),
  kind: Schema.String,
  hitPolicy: Schema.NullOr(Schema.String),
  decisionModelId: Schema.String,
  format: DecisionFormat,
  ...Created
}).annotate({ identifier: "Decision" })
export type Decision = typeof Decision.Type

export const DecisionDetail = Schema.Struct({
  ...Decision.fields,
  requiredDecisions: Schema.Array(Schema.String),
  requiredInputs: Schema.Array(Schema.String),
  table: Schema.NullOr(Schema.Unknown).annotate({
    description: "the JSON decision table as deployed (JSON deployments)"
  })
}).annotate({ identifier: "DecisionDetail" })

export const DecisionServiceInfo = Schema.Struct({
  key: Schema.String.annotate({
    description: "what the service is evaluated by: its DMN id, or its name when it has none (suffixed ~2, ... when " +
      "that name is another service's id)"
  }),
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  outputDecisions: Schema.Array(Schema.String),
  encapsulatedDecisions: Schema.Array(Schema.String),
  inputDecisions: Schema.Array(Schema.String),
  inputData: Schema.Array(Schema.String)
}).annotate({ identifier: "DecisionServiceInfo" })

export const InputDataInfo = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  typeRef: Schema.NullOr(Schema.String)
}).annotate({ identifier: "InputDataInfo" })

export const DecisionModel = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  namespace: Schema.NullOr(Schema.String),
  format: DecisionFormat,
  decisions: Schema.Array(Decision),
  decisionServices: Schema.Array(DecisionServiceInfo),
  inputs: Schema.Array(InputDataInfo),
  ...Created
}).annotate({ identifier: "DecisionModel" })
export type DecisionModel = typeof DecisionModel.Type

export const DecisionModelSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  namespace: Schema.NullOr(Schema.String),
  format: DecisionFormat,
  decisionCount: Schema.Int,
  ...Created
}).annotate({ identifier: "DecisionModelSummary" })

export const DecisionQuery = {
  ...PageQueryFields,
  key: Schema.optional(Schema.String).annotate({ description: "only the versions of this decision key, newest first" })
}

export const EvaluateRequest = Schema.Struct({
  variables: Schema.optional(Variables.annotate({
    description: "input values by name, typed by the model's input data; any value may be given explicitly typed as " +
      "{ \"@type\": \"date\" | \"time\" | \"date and time\" | \"days and time duration\" | " +
      "\"years and months duration\" | \"duration\" | \"range\" | \"number\" | \"string\" | \"boolean\", " +
      "\"value\": text }"
  }))
}).annotate({ identifier: "EvaluateRequest" })

export const EvaluateQuery = {
  typed: Schema.optional(Schema.Literals(["true", "false"])).annotate({
    description:
      "true: dates, times, date-times, durations, ranges and numbers a JSON number cannot hold exactly come " +
      "as { \"@type\": type, \"value\": text } (see docs/decisions.md)"
  })
}

export const EvaluationResult = Schema.Struct({
  decisionId: Schema.String,
  decisionKey: Schema.String,
  version: Schema.NullOr(Schema.Int),
  result: Schema.Unknown,
  trace: Schema.optional(Schema.Unknown)
}).annotate({ identifier: "EvaluationResult" })

export const FeelRequest = Schema.Struct({
  expression: Schema.String,
  context: Schema.optional(Variables)
}).annotate({ identifier: "FeelRequest" })

export const FeelResult = Schema.Struct({ result: Schema.Unknown }).annotate({ identifier: "FeelResult" })

export const FeelFunctionInfo = Schema.Struct({ name: Schema.String, parameters: Schema.Array(Schema.String) })
  .annotate({ identifier: "FeelFunction" })

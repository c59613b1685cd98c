// Deployments: versions of a process definition, deployed as BPMN 2.0 XML or as a JSON graph.
import { Schema } from "effect"
import { Authored, PageQueryFields, Variables } from "./Common.ts"

export const DeploymentFormat = Schema.Literals(["BPMN_XML", "JSON_GRAPH"]).annotate({ identifier: "DeploymentFormat" })
export const DeploymentState = Schema.Literals(["ACTIVE", "SUSPENDED"]).annotate({ identifier: "DeploymentState" })

export const JsonGraphNode = Schema.Struct({
  id: Schema.String,
  type: Schema.String.annotate({ description: "a BPMN element type, e.g. startEvent, serviceTask, exclusiveGateway" }),
  name: Schema.optional(Schema.String),
  properties: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description:
      "element settings: taskType, retries, headers, inputMappings, outputMappings, assignee, candidateGroups, " +
      "messageName, correlationKey, timer, attachedTo, cancelActivity, multiInstance, ..."
  })
}).annotate({ identifier: "JsonGraphNode" })

export const JsonGraphFlow = Schema.Struct({
  id: Schema.String,
  source: Schema.String,
  target: Schema.String,
  condition: Schema.optional(Schema.String).annotate({ description: "FEEL condition, e.g. \"= amount > 100\"" }),
  default: Schema.optional(Schema.Boolean)
}).annotate({ identifier: "JsonGraphFlow" })

export const JsonGraph = Schema.Struct({
  id: Schema.optional(Schema.String).annotate({ description: "the process key (BPMN process id)" }),
  name: Schema.optional(Schema.String),
  versionTag: Schema.optional(Schema.String.check(Schema.isMaxLength(200))).annotate({
    description: "the process's version tag (zeebe:versionTag), which call activities can bind to"
  }),
  nodes: Schema.Array(JsonGraphNode),
  flows: Schema.Array(JsonGraphFlow)
}).annotate({
  identifier: "JsonGraph",
  description: "A process as a graph of nodes and flows; compiles to the same model as BPMN XML."
})

export const DeployedResource = Schema.Struct({
  name: Schema.String.annotate({ description: "the resource's name as given" }),
  kind: Schema.Literals(["PROCESS", "DECISION", "FORM"]),
  id: Schema.String.annotate({
    description: "the deployment id (PROCESS), the decision id (DECISION: one entry per decision of the DMN), " +
      "the form id (FORM, GET /forms/{id})"
  }),
  key: Schema.String.annotate({ description: "the process id, decision id or form id the resource deploys" }),
  version: Schema.Int
}).annotate({ identifier: "DeployedResource" })
export type DeployedResource = typeof DeployedResource.Type

export const DeploymentBundle = Schema.Struct({
  resources: Schema.Array(Schema.Struct({
    name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(300)).annotate({
      description: "the file name; its extension says what it is: .bpmn (or .xml) BPMN 2.0 XML, .dmn DMN XML, " +
        ".form a Camunda form (form-js JSON, its `id` is the form id)"
    }),
    content: Schema.String.annotate({ description: "the file's content, as text" })
  })).check(Schema.isMinLength(1), Schema.isMaxLength(100))
}).annotate({
  identifier: "DeploymentBundle",
  description: "Several resources deployed together, as Camunda 8 deploys several files in one deployment: " +
    "bindingType=\"deployment\" binds to the resources deployed in the same request. At least one process."
})

export const Deployment = Schema.Struct({
  id: Schema.String,
  key: Schema.String.annotate({ description: "the process key (BPMN process id); versions are counted per key" }),
  name: Schema.NullOr(Schema.String),
  version: Schema.Int,
  versionTag: Schema.NullOr(Schema.String).annotate({
    description: "the process's zeebe:versionTag (call activities with bindingType versionTag bind to it)"
  }),
  bundleId: Schema.optional(Schema.String).annotate({
    description: "what one POST /deployments deployed together shares this id (a version deployed alone: its own " +
      "id); bindingType=\"deployment\" resolves a called process, decision or form within it"
  }),
  format: DeploymentFormat,
  state: DeploymentState,
  ...Authored,
  resources: Schema.optional(Schema.Array(DeployedResource)).annotate({
    description: "in the answer to a multi-resource deployment: every resource it deployed, in request order"
  })
}).annotate({ identifier: "Deployment" })
export type Deployment = typeof Deployment.Type

export const DeploymentDetail = Schema.Struct({
  ...Deployment.fields,
  bpmnXml: Schema.String.annotate({ description: "BPMN 2.0 XML (generated for JSON deployments)" }),
  source: Schema.NullOr(JsonGraph).annotate({ description: "the JSON graph as deployed, for JSON deployments" })
}).annotate({ identifier: "DeploymentDetail" })
export type DeploymentDetail = typeof DeploymentDetail.Type

export const DeploymentNode = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  name: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DeploymentNode" })

export const DeploymentQuery = {
  ...PageQueryFields,
  key: Schema.optional(Schema.String).annotate({
    description: "only the versions of this process key (its version history)"
  })
}

export const DeleteDeploymentQuery = {
  includeFinishedInstances: Schema.optional(Schema.Literals(["true", "false"]))
}

export const SimulateDeployment = Schema.Struct({
  runs: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 }))).annotate({
    description: "default 100"
  }),
  variables: Schema.optional(Variables).annotate({ description: "start variables of every run" }),
  variableSets: Schema.optional(Schema.Array(Variables).check(Schema.isMaxLength(1000))).annotate({
    description: "merged over variables, one per run in turn (to drive gateways down different branches)"
  }),
  results: Schema.optional(Schema.Record(Schema.String, Variables)).annotate({
    description:
      "by node id: the variables a job, task, call activity, business rule task, message or signal at that node answers with"
  }),
  events: Schema.optional(Schema.Array(Schema.String)).annotate({
    description: "boundary or event-gateway event node ids that happen when armed (in this order of preference)"
  }),
  maxStepsPerRun: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))).annotate({
    description: "default 1000; each step is one answer (a job completed, a timer fired, ...) and the run it causes"
  })
}).annotate({
  identifier: "SimulateDeployment",
  description: "A simulation takes at most 3 s of the node's time: runs not reached by then are not simulated (the " +
    "report's runs says how many were, outcomes.TIME_LIMIT counts the run cut short). A step whose run exceeds the " +
    "engine's run budget (a loop without a wait state) stops its run as STEP_LIMIT."
})

const Coverage = Schema.Struct({ covered: Schema.Int, total: Schema.Int, ratio: Schema.Number })
const RunOutcome = Schema.Literals(["COMPLETED", "INCIDENT", "STUCK", "STEP_LIMIT", "TIME_LIMIT"])

export const SimulationReport = Schema.Struct({
  deploymentId: Schema.String,
  runs: Schema.Int,
  outcomes: Schema.Struct({
    COMPLETED: Schema.Int,
    INCIDENT: Schema.Int,
    STUCK: Schema.Int,
    STEP_LIMIT: Schema.Int,
    TIME_LIMIT: Schema.Int
  }),
  nodeCoverage: Coverage,
  flowCoverage: Coverage,
  nodes: Schema.Array(Schema.Struct({ nodeId: Schema.String, type: Schema.String, activations: Schema.Int })),
  flows: Schema.Array(
    Schema.Struct({ flowId: Schema.String, source: Schema.String, target: Schema.String, taken: Schema.Int })
  ),
  uncoveredFlows: Schema.Array(Schema.String),
  stops: Schema.Array(
    Schema.Struct({ nodeId: Schema.String, outcome: RunOutcome, reason: Schema.String, runs: Schema.Int })
  ),
  timings: Schema.Struct({
    wallMillis: Schema.Number,
    perRunMillis: Schema.Struct({ avg: Schema.Number, p50: Schema.Number, p95: Schema.Number, max: Schema.Number }),
    simulatedMillis: Schema.Struct({ avg: Schema.Number, max: Schema.Number })
  })
}).annotate({ identifier: "SimulationReport" })

// Play sessions: a draft process run by hand in memory (SERVICE.md "Testing and analysis").
import { Schema } from "effect"
import { Variables } from "./Common.ts"

export const StartPlaySession = Schema.Struct({
  xml: Schema.optional(Schema.String).annotate({ description: "BPMN 2.0 XML of the draft (or give graph)" }),
  graph: Schema.optional(Schema.Unknown).annotate({ description: "a JSON graph, as POST /deployments takes" }),
  variables: Schema.optional(Variables),
  mocks: Schema.optional(Schema.Record(Schema.String, Variables)).annotate({
    description:
      "by node id: the result a job, task, call, decision, message or signal there gives when a step brings none"
  }),
  chooseFlows: Schema.optional(Schema.Record(Schema.String, Schema.String)).annotate({
    description: "gateway node id -> outgoing flow, for the first run"
  })
}).annotate({ identifier: "StartPlaySession" })

export const PlayStepRequest = Schema.Struct({
  tokenId: Schema.optional(Schema.String).annotate({
    description: "the waiting token to answer (default: the first that waits)"
  }),
  eventNodeId: Schema.optional(Schema.String).annotate({
    description: "instead, this armed boundary / gateway / event-subprocess event happens"
  }),
  variables: Schema.optional(Variables).annotate({ description: "the answer's result (set on the instance)" }),
  chooseFlows: Schema.optional(Schema.Record(Schema.String, Schema.String)).annotate({
    description: "gateway node id -> the outgoing flow it takes"
  })
}).annotate({ identifier: "PlayStep" })

const PlayStepTaken = Schema.Struct({
  step: Schema.Int.annotate({ description: "0 for the start, then 1, 2, ..." }),
  answered: Schema.String.annotate({ description: "the node the step answered (the process key for the start)" }),
  passed: Schema.Array(Schema.String).annotate({ description: "nodes completed during the step, in order" })
}).annotate({ identifier: "PlayStepTaken" })

export const PlaySessionView = Schema.Struct({
  id: Schema.String,
  processKey: Schema.String,
  state: Schema.Literals(["ACTIVE", "COMPLETED", "CANCELED"]),
  steps: Schema.Int,
  variables: Variables,
  tokens: Schema.Array(
    Schema.Struct({ tokenId: Schema.String, nodeId: Schema.String, waitingFor: Schema.NullOr(Schema.String) })
  ),
  armedEvents: Schema.Array(Schema.Struct({ nodeId: Schema.String, kind: Schema.String })),
  incidents: Schema.Array(Schema.Struct({ nodeId: Schema.String, type: Schema.String, message: Schema.String })),
  lastStep: Schema.NullOr(Schema.Struct({ answered: Schema.String, passed: Schema.Array(Schema.String) })).annotate({
    description: "the most recent step (also the last entry of path)"
  }),
  path: Schema.Array(PlayStepTaken).annotate({
    description:
      "every step taken, the start first: the whole path the played instance went (the most recent 10,000 steps)"
  }),
  createdAt: Schema.String
}).annotate({ identifier: "PlaySession", description: "In memory only; removed after 30 minutes without activity" })
export type PlaySessionView = typeof PlaySessionView.Type

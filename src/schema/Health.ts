import { Schema } from "effect"

const ComponentStatus = Schema.Literals(["UP", "DOWN"])

export const Health = Schema.Struct({
  status: ComponentStatus,
  database: Schema.Struct({ status: ComponentStatus, kind: Schema.String, latencyMs: Schema.Number }),
  cluster: Schema.Struct({
    status: ComponentStatus,
    mode: Schema.String,
    runnerStorage: Schema.String,
    /** Entities in this node's memory: the cluster's (jobs, Play sessions) and the process instances it holds. */
    activeEntities: Schema.Int
  }),
  /** Requests this node is answering right now, this health check included (a graceful stop waits for them). */
  requestsInFlight: Schema.Int,
  version: Schema.String,
  uptimeSeconds: Schema.Number
}).annotate({ identifier: "Health" })

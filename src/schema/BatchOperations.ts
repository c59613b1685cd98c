// Batch operations: one operation applied to many targets in the background, with progress and per-item outcomes.
import { Schema } from "effect"
import { MAX_JOB_RETRIES } from "../bpmn/StoredRanges.ts"
import { IsoDateTime } from "./Common.ts"
import { NodeMapping } from "./ProcessInstances.ts"
import { RequestVariables } from "./RequestVariables.ts"
import { retriesFrom } from "./Work.ts"

export const BatchType = Schema.Literals(["CANCEL", "RETRY", "RESOLVE_INCIDENT", "MIGRATE", "SET_VARIABLES"]).annotate({
  identifier: "BatchType",
  description:
    "CANCEL, MIGRATE, SET_VARIABLES: process instances; RETRY: jobs (new retries, a FAILED job's incident resolved); " +
    "RESOLVE_INCIDENT: incidents (retried: the failed node runs again)"
})

export const BatchState = Schema.Literals(["ACTIVE", "COMPLETED"]).annotate({ identifier: "BatchState" })
export const BatchItemState = Schema.Literals(["PENDING", "SUCCEEDED", "FAILED"]).annotate({
  identifier: "BatchItemState"
})

export const InstanceFilter = Schema.Struct({
  processKey: Schema.optional(Schema.String),
  deploymentId: Schema.optional(Schema.String),
  state: Schema.optional(Schema.Literals(["ACTIVE", "SUSPENDED"])),
  hasIncident: Schema.optional(Schema.Boolean)
}).annotate({
  identifier: "BatchInstanceFilter",
  description:
    "selects running process instances (and, for RETRY / RESOLVE_INCIDENT, their failed jobs / open incidents)"
})

export const CreateBatchOperation = Schema.Struct({
  type: BatchType,
  targetIds: Schema.optional(Schema.Array(Schema.String).check(Schema.isMaxLength(10_000))).annotate({
    description: "ids of the targets (instances, jobs or incidents by type); or give filter"
  }),
  filter: Schema.optional(InstanceFilter),
  variables: Schema.optional(RequestVariables).annotate({
    description: "SET_VARIABLES: merged into each instance's variables"
  }),
  retries: Schema.optional(retriesFrom(1)).annotate({
    description: `RETRY: the jobs' new retries, 1..${MAX_JOB_RETRIES} (default 1)`
  }),
  migration: Schema.optional(Schema.Struct({
    targetDeploymentId: Schema.String.check(Schema.isMinLength(1)),
    mappings: Schema.optional(Schema.Array(NodeMapping)),
    mapEqualNodes: Schema.optional(Schema.Boolean)
  })).annotate({ description: "MIGRATE: as POST /process-instances/migrate" })
}).annotate({ identifier: "CreateBatchOperation" })

export const BatchItem = Schema.Struct({
  targetId: Schema.String,
  state: BatchItemState,
  message: Schema.NullOr(Schema.String),
  processedAt: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "BatchItem" })

export const BatchOperation = Schema.Struct({
  id: Schema.String,
  type: BatchType,
  state: BatchState,
  total: Schema.Int,
  pending: Schema.Int,
  succeeded: Schema.Int,
  failed: Schema.Int,
  createdBy: Schema.String,
  createdAt: IsoDateTime,
  completedAt: Schema.NullOr(IsoDateTime),
  items: Schema.Array(BatchItem)
}).annotate({ identifier: "BatchOperation" })
export type BatchOperation = typeof BatchOperation.Type

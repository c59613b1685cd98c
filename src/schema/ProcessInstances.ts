// Process instances, their history, and the commands on them.
import { Schema } from "effect"
import { IsoDateTime, PageQueryFields, Variables } from "./Common.ts"
import { MAX_VARIABLE_NAME, RequestVariables } from "./RequestVariables.ts"

export { MAX_VARIABLE_NAME } from "./RequestVariables.ts"

export const InstanceState = Schema.Literals(["ACTIVE", "SUSPENDED", "COMPLETED", "CANCELED"]).annotate({
  identifier: "InstanceState",
  description: "an instance with an open incident stays ACTIVE and has incidentCount > 0"
})

export const ProcessInstance = Schema.Struct({
  id: Schema.String,
  deploymentId: Schema.String,
  processKey: Schema.String,
  version: Schema.Int,
  state: InstanceState,
  incidentCount: Schema.Int,
  parentInstanceId: Schema.NullOr(Schema.String),
  rootInstanceId: Schema.String,
  variables: Variables,
  startedBy: Schema.String,
  startedAt: IsoDateTime,
  endedAt: Schema.NullOr(IsoDateTime),
  updatedAt: IsoDateTime
}).annotate({ identifier: "ProcessInstance" })
export type ProcessInstance = typeof ProcessInstance.Type

export const StartInstance = Schema.Struct({
  deploymentId: Schema.String.check(Schema.isMinLength(1)),
  variables: Schema.optional(RequestVariables)
}).annotate({ identifier: "StartInstance" })

export const MoveToken = Schema.Struct({
  sourceNodeId: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "the node a token waits at" }),
  targetNodeId: Schema.String.check(Schema.isMinLength(1)).annotate({
    description: "a node of the same scope (process or subprocess)"
  }),
  tokenId: Schema.optional(Schema.String).annotate({
    description: "needed when several tokens wait at the source node (GET .../tokens)"
  }),
  variables: Schema.optional(RequestVariables).annotate({
    description: "set in the token's scope before the target is activated"
  })
}).annotate({
  identifier: "MoveToken",
  description:
    "Withdraws what the token waits on (job, task, subscriptions, incident, a subprocess's content) and activates the target node"
})

export const NodeMapping = Schema.Struct({
  sourceNodeId: Schema.String.check(Schema.isMinLength(1)),
  targetNodeId: Schema.String.check(Schema.isMinLength(1))
}).annotate({ identifier: "NodeMapping" })

export const MigrateInstances = Schema.Struct({
  processInstanceIds: Schema.Array(Schema.String).check(Schema.isMinLength(1), Schema.isMaxLength(1000)),
  targetDeploymentId: Schema.String.check(Schema.isMinLength(1)),
  mappings: Schema.optional(Schema.Array(NodeMapping)).annotate({
    description: "every node an instance is active at must be mapped to a node of the same type and event kind"
  }),
  mapEqualNodes: Schema.optional(Schema.Boolean).annotate({
    description:
      "map each active node without a mapping to the node with the same id and type in the target (default false)"
  })
}).annotate({ identifier: "MigrateInstances" })

export const MigrationResult = Schema.Struct({
  targetDeploymentId: Schema.String,
  migratedCount: Schema.Int,
  processInstanceIds: Schema.Array(Schema.String),
  failed: Schema.Array(Schema.Struct({ processInstanceId: Schema.String, message: Schema.String }))
}).annotate({
  identifier: "MigrationResult",
  description:
    "All instances are checked first (400 lists every unmapped or incompatible node); each is then migrated atomically. " +
    "failed lists instances that changed between the check and their migration."
})

export const InstanceQuery = {
  ...PageQueryFields,
  deploymentId: Schema.optional(Schema.String),
  processKey: Schema.optional(Schema.String),
  state: Schema.optional(InstanceState),
  hasIncident: Schema.optional(Schema.Literals(["true", "false"])),
  startedAfter: Schema.optional(Schema.String).annotate({ description: "ISO 8601 date-time, inclusive" }),
  startedBefore: Schema.optional(Schema.String).annotate({ description: "ISO 8601 date-time, exclusive" }),
  endedAfter: Schema.optional(Schema.String),
  endedBefore: Schema.optional(Schema.String),
  variableName: Schema.optional(Schema.String).annotate({
    description: "only instances whose own (root-scope) variables hold this name (at most 200 characters)"
  }),
  variableValue: Schema.optional(Schema.String).annotate({
    description:
      "with variableName: only where the variable has this value — JSON (\"open\", 42, true, {\"a\":1}; objects match by containment), else taken as a string; at most 4096 characters"
  })
}

export const HistoryEvent = Schema.Struct({
  eventSeq: Schema.Int,
  type: Schema.String,
  nodeId: Schema.NullOr(Schema.String),
  tokenId: Schema.NullOr(Schema.String),
  data: Schema.Record(Schema.String, Schema.Unknown),
  sub: Schema.NullOr(Schema.String).annotate({ description: "the caller whose request caused the event" }),
  occurredAt: IsoDateTime
}).annotate({ identifier: "HistoryEvent" })
export type HistoryEvent = typeof HistoryEvent.Type

export const InstanceVariables = Schema.Struct({
  processInstanceId: Schema.String,
  variables: Variables,
  version: Schema.Int.annotate({
    description: "send it back as expectedVersion to update without overwriting someone else's change"
  })
}).annotate({ identifier: "InstanceVariables" })

export const UpdateVariables = Schema.Struct({
  variables: RequestVariables,
  expectedVersion: Schema.optional(Schema.Int).annotate({
    description: "the version read; a stale one answers 409 CONFLICT naming the current version"
  })
}).annotate({ identifier: "UpdateVariables" })

export const InstanceToken = Schema.Struct({
  tokenId: Schema.String,
  nodeId: Schema.String,
  waitingFor: Schema.NullOr(
    Schema.Literals([
      "JOB",
      "USER_TASK",
      "JOIN",
      "MESSAGE",
      "SIGNAL",
      "TIMER",
      "CONDITION",
      "SUBPROCESS",
      "CHILD_INSTANCE",
      "MULTI_INSTANCE",
      "DECISION",
      "INCIDENT",
      "COMPENSATION"
    ])
  ),
  jobId: Schema.NullOr(Schema.String),
  taskId: Schema.NullOr(Schema.String),
  incidentId: Schema.NullOr(Schema.String),
  subscriptionId: Schema.NullOr(Schema.String),
  childInstanceId: Schema.NullOr(Schema.String)
}).annotate({ identifier: "InstanceToken" })

export const EventSubscription = Schema.Struct({
  id: Schema.String,
  nodeId: Schema.String,
  kind: Schema.Literals(["MESSAGE", "TIMER", "SIGNAL"]),
  name: Schema.NullOr(Schema.String),
  correlationKey: Schema.NullOr(Schema.String),
  dueAt: Schema.NullOr(IsoDateTime),
  createdAt: IsoDateTime
}).annotate({ identifier: "EventSubscription" })

export const InstanceSnapshot = Schema.Struct({
  processInstanceId: Schema.String,
  eventSeq: Schema.Int,
  state: InstanceState,
  variables: Variables,
  activeNodes: Schema.Array(Schema.String)
}).annotate({ identifier: "InstanceSnapshotAtEvent" })

export const NodeVariables = Schema.Struct({
  nodeId: Schema.String,
  variables: Variables
}).annotate({
  identifier: "NodeVariables",
  description: "variables attached to a node: local to each later activation of it"
})

export const SetNodeVariables = Schema.Struct({ variables: RequestVariables }).annotate({
  identifier: "SetNodeVariables"
})

/** A variable named in a path (`/scopes/{scopeId}/variables/{name}`). */
export const VariableNameParam = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(MAX_VARIABLE_NAME))
  .annotate({ description: `the variable's name (1 to ${MAX_VARIABLE_NAME} characters)` })

export const ScopedVariable = Schema.Struct({
  name: Schema.String,
  value: Schema.Unknown,
  scopeId: Schema.String.annotate({
    description: "the scope the variable was found in: the instance id (root) or a subprocess scope"
  })
}).annotate({ identifier: "ScopedVariable" })

export const SetScopedVariable = Schema.Struct({ value: Schema.Unknown }).annotate({ identifier: "SetScopedVariable" })

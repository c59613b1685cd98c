// The commands a ProcessInstance entity applies, as effect Schemas: they travel as entity messages.
import { Schema } from "effect"

const Vars = Schema.Record(Schema.String, Schema.Unknown)

/** What an update of a user task may change (Camunda 8.8's user task update; the assignee has its own command). */
export const TaskChanges = Schema.Struct({
  candidateGroups: Schema.optional(Schema.Array(Schema.String)),
  candidateUsers: Schema.optional(Schema.Array(Schema.String)),
  dueDate: Schema.optional(Schema.NullOr(Schema.String)),
  followUpDate: Schema.optional(Schema.NullOr(Schema.String)),
  priority: Schema.optional(Schema.Int)
})
export type TaskChanges = typeof TaskChanges.Type

/** What a user task listener may correct on the task (Camunda 8.8's corrections): the assignee too. */
export const TaskCorrections = Schema.Struct({
  assignee: Schema.optional(Schema.NullOr(Schema.String)),
  ...TaskChanges.fields
})
export type TaskCorrections = typeof TaskCorrections.Type

export const InstanceCommand = Schema.Union([
  Schema.Struct({
    type: Schema.Literal("StartInstance"),
    variables: Vars,
    startNodeId: Schema.optional(Schema.String),
    /** Started by a call activity: uncaught errors and escalations go to the caller. */
    called: Schema.optional(Schema.Boolean)
  }),
  Schema.Struct({
    type: Schema.Literal("CompleteJob"),
    jobId: Schema.String,
    variables: Vars,
    /** The decision of an ad-hoc subprocess's worker (Camunda 8.8's job result of type adHocSubProcess). */
    result: Schema.optional(Schema.Struct({
      activateElements: Schema.optional(
        Schema.Array(Schema.Struct({ elementId: Schema.String, variables: Schema.optional(Vars) }))
      ),
      isCompletionConditionFulfilled: Schema.optional(Schema.Boolean),
      isCancelRemainingInstances: Schema.optional(Schema.Boolean),
      /** A user task listener's answer (Camunda 8.8's job result of type userTask): deny, and corrections. */
      denied: Schema.optional(Schema.Boolean),
      deniedReason: Schema.optional(Schema.String),
      corrections: Schema.optional(TaskCorrections)
    }))
  }),
  Schema.Struct({ type: Schema.Literal("CompleteUserTask"), taskId: Schema.String, variables: Vars }),
  /** A user task with assigning listeners gets a new assignee (null: unassigned) once they have run. */
  Schema.Struct({
    type: Schema.Literal("AssignUserTask"),
    taskId: Schema.String,
    assignee: Schema.NullOr(Schema.String)
  }),
  /** A user task's candidates, dates or priority change, once its updating listeners (if any) have run. */
  Schema.Struct({ type: Schema.Literal("UpdateUserTask"), taskId: Schema.String, changes: TaskChanges }),
  Schema.Struct({ type: Schema.Literal("CorrelateMessage"), subscriptionId: Schema.String, variables: Vars }),
  Schema.Struct({ type: Schema.Literal("TriggerSignal"), subscriptionId: Schema.String, variables: Vars }),
  Schema.Struct({ type: Schema.Literal("FireTimer"), subscriptionId: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("FailJob"),
    jobId: Schema.String,
    retries: Schema.Int,
    errorMessage: Schema.String,
    /** When the job can be activated again (ISO date-time); null: at once. */
    retryAt: Schema.NullOr(Schema.String),
    variables: Schema.optional(Vars),
    /** The incident's type when no retries are left (default JOB_NO_RETRIES). */
    incidentType: Schema.optional(Schema.String)
  }),
  Schema.Struct({ type: Schema.Literal("UpdateJobRetries"), jobId: Schema.String, retries: Schema.Int }),
  Schema.Struct({
    type: Schema.Literal("ResolveIncident"),
    incidentId: Schema.String,
    /** retry: run the failed node again (a job: activatable again); skip: leave the node as if it had completed. */
    action: Schema.Literals(["retry", "skip"]),
    /** Merged into the variables first (nearest scope that has each name, else the instance). */
    variables: Schema.optional(Vars),
    /** Replaces the instance's root variables first (rollback to a history event). */
    restoreVariables: Schema.optional(Vars)
  }),
  Schema.Struct({
    type: Schema.Literal("ThrowError"),
    jobId: Schema.String,
    errorCode: Schema.String,
    errorMessage: Schema.String,
    variables: Vars
  }),
  Schema.Struct({
    type: Schema.Literal("SetVariables"),
    variables: Vars,
    expectedVersion: Schema.optional(Schema.Int)
  }),
  Schema.Struct({
    type: Schema.Literal("SetScopeVariable"),
    scopeId: Schema.String,
    name: Schema.String,
    value: Schema.Unknown
  }),
  Schema.Struct({ type: Schema.Literal("RemoveScopeVariable"), scopeId: Schema.String, name: Schema.String }),
  Schema.Struct({ type: Schema.Literal("SetNodeVariables"), nodeId: Schema.String, variables: Vars }),
  Schema.Struct({ type: Schema.Literal("ChildInstanceCompleted"), childInstanceId: Schema.String, variables: Vars }),
  Schema.Struct({
    type: Schema.Literal("ChildInstanceFailed"),
    childInstanceId: Schema.String,
    message: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("ChildErrorThrown"),
    childInstanceId: Schema.String,
    errorCode: Schema.String,
    errorMessage: Schema.String,
    variables: Vars
  }),
  Schema.Struct({
    type: Schema.Literal("ChildEscalated"),
    childInstanceId: Schema.String,
    escalationCode: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("DecisionEvaluated"),
    evaluationId: Schema.String,
    result: Schema.Unknown,
    outputs: Vars
  }),
  Schema.Struct({ type: Schema.Literal("DecisionFailed"), evaluationId: Schema.String, message: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("MoveToken"),
    sourceNodeId: Schema.String,
    targetNodeId: Schema.String,
    tokenId: Schema.optional(Schema.String),
    variables: Vars
  }),
  Schema.Struct({
    type: Schema.Literal("MigrateInstance"),
    targetDeploymentId: Schema.String,
    /** Source node id -> target node id, for every node the instance is active at. */
    mappings: Schema.Record(Schema.String, Schema.String)
  }),
  Schema.Struct({ type: Schema.Literal("CancelInstance") }),
  Schema.Struct({ type: Schema.Literal("SuspendInstance") }),
  Schema.Struct({ type: Schema.Literal("ResumeInstance") })
])
export type InstanceCommand = typeof InstanceCommand.Type

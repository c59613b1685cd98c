// Jobs for external workers, human tasks and incidents (the minimal work path of the process engine).
import { Schema } from "effect"
import { MAX_JOB_RETRIES } from "../bpmn/StoredRanges.ts"
import { IsoDateTime, PageQueryFields, Timestamps, Variables } from "./Common.ts"
import { RequestVariables } from "./RequestVariables.ts"

/** A job's retries as a request sets them: a whole number the jobs table holds (an integer column, at most 2^31 − 1). */
export const retriesFrom = (minimum: number) =>
  Schema.Int.check(Schema.isBetween({ minimum, maximum: MAX_JOB_RETRIES }))

export const JobState = Schema.Literals(["ACTIVATABLE", "ACTIVATED", "COMPLETED", "CANCELED", "FAILED", "ERROR_THROWN"])
  .annotate({ identifier: "JobState" })

export const Job = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  state: JobState,
  processInstanceId: Schema.String,
  nodeId: Schema.String,
  elementInstanceId: Schema.String,
  retries: Schema.Int,
  worker: Schema.NullOr(Schema.String),
  deadline: Schema.NullOr(IsoDateTime),
  customHeaders: Schema.Record(Schema.String, Schema.String),
  variables: Variables.annotate({
    description: "while the instance waits on the job, the variables it sees now — an activation evaluates its " +
      "input mappings anew, a list shows their results as recorded when it was created; a done job, and the " +
      "replies of job commands: its own (a multi-instance item and loopCounter, its mapped inputs) as recorded"
  }),
  errorMessage: Schema.NullOr(Schema.String),
  ...Timestamps
}).annotate({ identifier: "Job" })
export type Job = typeof Job.Type

export const ActivateJobs = Schema.Struct({
  type: Schema.String.check(Schema.isMinLength(1)),
  worker: Schema.String.check(Schema.isMinLength(1)),
  maxJobsToActivate: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))).annotate({
    description: "default 10"
  }),
  timeout: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 * 24 * 3_600_000 }))).annotate({
    description: "lock duration in ms (default 300000); after it the job can be activated again"
  }),
  fetchVariable: Schema.optional(Schema.Array(Schema.String)).annotate({
    description: "only these variables (default all)"
  }),
  requestTimeout: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 600_000 }))).annotate({
    description: "long polling: with no job available, wait up to this many ms for one (default 0: answer at once)"
  })
}).annotate({ identifier: "ActivateJobs" })

export const JobStreamQuery = {
  type: Schema.String.check(Schema.isMinLength(1)),
  worker: Schema.String.check(Schema.isMinLength(1)),
  timeout: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 * 24 * 3_600_000 }))).annotate({
    description: "lock duration of each pushed job, ms (default 300000)"
  }),
  fetchVariable: Schema.optional(Schema.String).annotate({
    description: "comma-separated variable names (default all)"
  })
}

export const ActivatedJobs = Schema.Struct({ jobs: Schema.Array(Job) }).annotate({ identifier: "ActivatedJobs" })

export const ThrowJobError = Schema.Struct({
  errorCode: Schema.String.check(Schema.isMinLength(1)),
  errorMessage: Schema.optional(Schema.String),
  variables: Schema.optional(RequestVariables)
}).annotate({ identifier: "ThrowJobError" })

export const FailJob = Schema.Struct({
  retries: Schema.optional(retriesFrom(0)).annotate({
    description: `retries left after this failure (default: the job's retries minus one), 0..${MAX_JOB_RETRIES}; ` +
      "0 raises a JOB_NO_RETRIES incident"
  }),
  errorMessage: Schema.optional(Schema.String),
  retryBackOff: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 7 * 24 * 3_600_000 })))
    .annotate({
      description: "ms before the job can be activated again (default: the job's retry policy, else 0)"
    }),
  variables: Schema.optional(RequestVariables).annotate({
    description: "set before the next attempt (each into the nearest scope that has it, else the instance)"
  })
}).annotate({ identifier: "FailJob" })

export const RetryPolicy = Schema.Struct({
  backoff: Schema.Literals(["FIXED", "EXPONENTIAL"]),
  delay: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 7 * 24 * 3_600_000 })).annotate({
    description: "ms before the first retry (FIXED: before every retry)"
  }),
  multiplier: Schema.optional(Schema.Number.check(Schema.isBetween({ minimum: 1, maximum: 10 }))).annotate({
    description: "EXPONENTIAL: factor per attempt (default 2)"
  }),
  maxDelay: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 7 * 24 * 3_600_000 }))).annotate({
    description: "upper bound of the delay, ms (default: the largest allowed, 7 days)"
  })
}).annotate({
  identifier: "RetryPolicy",
  description:
    "How long a failed job waits before it can be activated again, when the worker's fail call gives no retryBackOff"
})
export type RetryPolicy = typeof RetryPolicy.Type

export const SetRetryPolicy = Schema.Struct({
  policy: RetryPolicy,
  retries: Schema.optional(retriesFrom(1)).annotate({
    description: `also set the retry count (as POST .../retries), 1..${MAX_JOB_RETRIES}`
  })
}).annotate({ identifier: "SetRetryPolicy" })

export const RetryState = Schema.Struct({
  jobId: Schema.String,
  state: JobState,
  retries: Schema.Int,
  policy: Schema.NullOr(RetryPolicy),
  attempts: Schema.Int.annotate({ description: "failures reported so far" }),
  waiting: Schema.Boolean.annotate({ description: "a retry is pending: the job is activatable only from nextRetryAt" }),
  nextRetryAt: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "RetryState" })

export const RetryAttempt = Schema.Struct({
  attempt: Schema.Int,
  kind: Schema.Literals(["FAILED", "LOCK_EXPIRED"]).annotate({
    description:
      "FAILED: the worker reported a failure; LOCK_EXPIRED: the worker's lock ran out before it completed, failed or extended the job"
  }),
  worker: Schema.NullOr(Schema.String),
  errorMessage: Schema.String,
  retriesLeft: Schema.Int,
  retryAt: Schema.NullOr(IsoDateTime),
  failedAt: IsoDateTime
}).annotate({ identifier: "RetryAttempt" })

export const JobRetries = Schema.Struct({
  retries: retriesFrom(1).annotate({ description: `1..${MAX_JOB_RETRIES}` })
}).annotate({
  identifier: "JobRetries",
  description: "a dead-lettered (FAILED) job's incident is resolved and it becomes activatable"
})

export const JobHeartbeat = Schema.Struct({
  worker: Schema.optional(Schema.String).annotate({ description: "when given, must be the worker holding the lock" }),
  timeout: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 * 24 * 3_600_000 }))).annotate({
    description: "new lock duration from now, in ms (default 300000)"
  })
}).annotate({ identifier: "JobHeartbeat" })

export const RestartFromNode = Schema.Struct({ nodeId: Schema.String.check(Schema.isMinLength(1)) }).annotate({
  identifier: "RestartFromNode"
})
export const RollbackIncident = Schema.Struct({
  eventSeq: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
    description: "the history event whose variables are restored"
  })
}).annotate({ identifier: "RollbackIncident" })
export const EditVariablesAndRetry = Schema.Struct({ variables: RequestVariables }).annotate({
  identifier: "EditVariablesAndRetry"
})

export const CompleteWork = Schema.Struct({ variables: Schema.optional(RequestVariables) }).annotate({
  identifier: "CompleteWork"
})

/** The job result of an ad-hoc subprocess's worker (Camunda 8.8's `result` of type `adHocSubProcess`). */
export const AdHocJobResult = Schema.Struct({
  type: Schema.optional(Schema.Literals(["adHocSubProcess", "userTask"])),
  activateElements: Schema.optional(Schema.Array(Schema.Struct({
    elementId: Schema.String,
    variables: Schema.optional(RequestVariables)
  }))).annotate({ description: "inner elements to activate, each with variables of its own" }),
  isCompletionConditionFulfilled: Schema.optional(Schema.Boolean).annotate({
    description: "the ad-hoc subprocess is done (cannot be combined with activateElements)"
  }),
  isCancelRemainingInstances: Schema.optional(Schema.Boolean).annotate({
    description: "when done: terminate the paths still running (default: wait for them)"
  }),
  denied: Schema.optional(Schema.Boolean).annotate({
    description: "user task listener (completing): the completion is refused and the task stays open"
  }),
  deniedReason: Schema.optional(Schema.String),
  corrections: Schema.optional(Schema.Struct({
    assignee: Schema.optional(Schema.NullOr(Schema.String)),
    candidateGroups: Schema.optional(Schema.Array(Schema.String)),
    candidateUsers: Schema.optional(Schema.Array(Schema.String)),
    dueDate: Schema.optional(Schema.NullOr(IsoDateTime)),
    followUpDate: Schema.optional(Schema.NullOr(IsoDateTime)),
    priority: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })))
  })).annotate({ description: "user task listener (creating): values the task is created with instead" })
}).annotate({ identifier: "JobResult" })

export const CompleteJob = Schema.Struct({
  variables: Schema.optional(RequestVariables),
  result: Schema.optional(AdHocJobResult).annotate({
    description: "only for the job of an ad-hoc subprocess implemented by a job worker: what it decided"
  })
}).annotate({ identifier: "CompleteJob" })

export const JobQuery = {
  ...PageQueryFields,
  type: Schema.optional(Schema.String),
  state: Schema.optional(JobState),
  processInstanceId: Schema.optional(Schema.String)
}

export const TaskState = Schema.Literals(["CREATED", "COMPLETED", "CANCELED"]).annotate({ identifier: "TaskState" })

export const UserTask = Schema.Struct({
  id: Schema.String,
  name: Schema.NullOr(Schema.String),
  state: TaskState,
  processInstanceId: Schema.String,
  nodeId: Schema.String,
  assignee: Schema.NullOr(Schema.String),
  candidateGroups: Schema.Array(Schema.String),
  candidateUsers: Schema.Array(Schema.String),
  formKey: Schema.NullOr(Schema.String),
  formVersionTag: Schema.optional(Schema.NullOr(Schema.String)).annotate({
    description: "the form's version tag when the task binds its form by one (bindingType=\"versionTag\")"
  }),
  formBinding: Schema.optional(Schema.NullOr(Schema.Literal("deployment"))).annotate({
    description: "\"deployment\" when the task binds its form to the one deployed together with its process " +
      "version (bindingType=\"deployment\"): GET /tasks/{id}/form serves that one"
  }),
  priority: Schema.Number.annotate({ description: "0..100, higher first (zeebe:priorityDefinition; default 50)" }),
  dueDate: Schema.NullOr(IsoDateTime).annotate({ description: "zeebe:taskSchedule dueDate" }),
  followUpDate: Schema.NullOr(IsoDateTime).annotate({ description: "zeebe:taskSchedule followUpDate" }),
  owner: Schema.NullOr(Schema.String).annotate({
    description: "who delegated the task (it returns to them when the delegate completes)"
  }),
  delegationState: Schema.NullOr(Schema.Literals(["PENDING", "RESOLVED"])),
  variables: Variables.annotate({
    description: "listed while the task is open: the variables it sees now; a done task: its own (a multi-instance " +
      "item and loopCounter, its mapped inputs) as recorded when it was created"
  }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  completedAt: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "UserTask" })

export const AssignTask = Schema.Struct({
  assignee: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
}).annotate({ identifier: "AssignTask" })
/** Camunda 8.8's user task update: the attributes to change (at least one); the assignee has its own operations. */
export const UpdateTask = Schema.Struct({
  candidateGroups: Schema.optional(
    Schema.Array(Schema.String.check(Schema.isMaxLength(200))).check(Schema.isMaxLength(100))
  ),
  candidateUsers: Schema.optional(
    Schema.Array(Schema.String.check(Schema.isMaxLength(200))).check(Schema.isMaxLength(100))
  ),
  dueDate: Schema.optional(Schema.NullOr(IsoDateTime)),
  followUpDate: Schema.optional(Schema.NullOr(IsoDateTime)),
  priority: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 })))
}).annotate({ identifier: "UpdateTask" })
export const DelegateTask = Schema.Struct({
  userId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
}).annotate({ identifier: "DelegateTask" })
export const AddComment = Schema.Struct({
  message: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(10_000))
}).annotate({ identifier: "AddComment" })
export const TaskComment = Schema.Struct({
  id: Schema.String,
  taskId: Schema.String,
  author: Schema.String,
  message: Schema.String,
  createdAt: IsoDateTime
}).annotate({ identifier: "TaskComment" })

export const TaskSort = Schema.Literals(["createdAt", "priority", "dueDate", "followUpDate"]).annotate({
  identifier: "TaskSort",
  description: "createdAt: newest first (default); priority: highest first; dueDate, followUpDate: soonest first, " +
    "tasks without one last"
})

const dateQuery = (description: string) =>
  Schema.optional(Schema.String).annotate({ description: `ISO 8601 date-time; ${description}` })

export type TaskSort = typeof TaskSort.Type

const TaskFilterQuery = Schema.Struct({
  candidateGroup: Schema.optional(Schema.String),
  assignee: Schema.optional(Schema.String),
  state: Schema.optional(Schema.Literals(["CREATED", "COMPLETED", "CANCELED"])),
  processInstanceId: Schema.optional(Schema.String),
  dueBefore: Schema.optional(Schema.String),
  dueAfter: Schema.optional(Schema.String),
  followUpBefore: Schema.optional(Schema.String),
  followUpAfter: Schema.optional(Schema.String),
  sort: Schema.optional(TaskSort)
})
export const CreateTaskFilter = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  query: TaskFilterQuery.annotate({ description: "the GET /tasks query it stands for" }),
  shared: Schema.optional(Schema.Boolean).annotate({
    description: "visible to everyone in the tenant (default false: only its owner)"
  })
}).annotate({ identifier: "CreateTaskFilter" })
export const TaskFilter = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  owner: Schema.String,
  shared: Schema.Boolean,
  query: TaskFilterQuery,
  createdAt: IsoDateTime
}).annotate({ identifier: "TaskFilter" })
export type TaskFilter = typeof TaskFilter.Type
export type UserTask = typeof UserTask.Type

export const TaskQuery = {
  ...PageQueryFields,
  candidateGroup: Schema.optional(Schema.String),
  assignee: Schema.optional(Schema.String),
  assigned: Schema.optional(Schema.Literals(["true", "false"])).annotate({
    description: "false: only tasks nobody holds (the tasklist's \"unassigned\"); true: only tasks someone holds"
  }),
  state: Schema.optional(TaskState),
  processInstanceId: Schema.optional(Schema.String),
  dueBefore: dateQuery("tasks due before it (exclusive)"),
  dueAfter: dateQuery("tasks due at or after it"),
  followUpBefore: dateQuery("tasks to follow up before it (exclusive)"),
  followUpAfter: dateQuery("tasks to follow up at or after it"),
  sort: Schema.optional(TaskSort)
}

export const IncidentState = Schema.Literals(["OPEN", "RESOLVED"]).annotate({ identifier: "IncidentState" })

export const Incident = Schema.Struct({
  id: Schema.String,
  processInstanceId: Schema.String,
  nodeId: Schema.String,
  jobId: Schema.NullOr(Schema.String),
  type: Schema.String,
  message: Schema.String,
  state: IncidentState,
  createdAt: IsoDateTime,
  resolvedAt: Schema.NullOr(IsoDateTime)
}).annotate({ identifier: "Incident" })
export type Incident = typeof Incident.Type

export const IncidentQuery = {
  ...PageQueryFields,
  state: Schema.optional(IncidentState),
  processInstanceId: Schema.optional(Schema.String)
}

// Insights: metrics over the instances, jobs and tasks of a tenant; and the instance summary projection's rebuild.
import { Schema } from "effect"

export const InsightsQuery = {
  processKey: Schema.optional(Schema.String),
  from: Schema.optional(Schema.String).annotate({ description: "instances started at or after (ISO 8601)" }),
  to: Schema.optional(Schema.String).annotate({ description: "instances started before (ISO 8601)" })
}

const Millis = Schema.NullOr(Schema.Number).annotate({
  description: "milliseconds; null when there is nothing to measure"
})
const Rate = Schema.NullOr(Schema.Number).annotate({ description: "0..1; null when there is nothing to measure" })

export const ProcessInsight = Schema.Struct({
  processKey: Schema.String,
  started: Schema.Int,
  completed: Schema.Int,
  canceled: Schema.Int,
  running: Schema.Int,
  withIncidents: Schema.Int,
  completionRate: Rate.annotate({ description: "completed ÷ finished (completed + canceled)" }),
  duration: Schema.Struct({ avg: Millis, p50: Millis, p95: Millis, max: Millis }).annotate({
    description: "of completed instances"
  })
}).annotate({ identifier: "ProcessInsight" })

export const JobInsight = Schema.Struct({
  type: Schema.String,
  total: Schema.Int,
  completed: Schema.Int,
  deadLettered: Schema.Int.annotate({ description: "FAILED: no retries left" }),
  failures: Schema.Int.annotate({ description: "failures reported" }),
  firstTimeSuccessRate: Rate.annotate({ description: "completed without any failure ÷ completed" })
}).annotate({ identifier: "JobInsight" })

export const Insights = Schema.Struct({
  processes: Schema.Array(ProcessInsight),
  jobs: Schema.Array(JobInsight),
  tasks: Schema.Struct({
    open: Schema.Int,
    averageOpenAge: Millis,
    oldestOpenAge: Millis,
    completed: Schema.Int,
    averageCompletionTime: Millis
  }),
  measuredAt: Schema.String
}).annotate({ identifier: "Insights", description: "Process duration and completion rate, job reliability, task age" })

export const ReportQuery = {
  ...InsightsQuery,
  metric: Schema.optional(Schema.Literals(["COMPLETION_RATE", "DURATION"])).annotate({
    description: "default COMPLETION_RATE"
  }),
  groupBy: Schema.optional(Schema.String.check(Schema.isMinLength(1))).annotate({
    description: "a root variable name; groups by its value"
  })
}

export const InsightsReport = Schema.Struct({
  metric: Schema.Literals(["COMPLETION_RATE", "DURATION"]),
  groupBy: Schema.NullOr(Schema.String),
  groups: Schema.Array(Schema.Struct({
    group: Schema.NullOr(Schema.String).annotate({ description: "the variable's value as text (null: not set)" }),
    instances: Schema.Int,
    completed: Schema.Int,
    canceled: Schema.Int,
    running: Schema.Int,
    completionRate: Rate,
    averageDuration: Millis,
    p50Duration: Millis,
    p95Duration: Millis,
    value: Schema.NullOr(Schema.Number).annotate({ description: "the requested metric for this group" })
  }))
}).annotate({ identifier: "InsightsReport" })

export const RebuildResult = Schema.Struct({
  projection: Schema.Literal("instance-summary"),
  instances: Schema.Int,
  corrected: Schema.Int.annotate({
    description: "instances whose summary differed from their history and was rewritten"
  }),
  durationMillis: Schema.Number
}).annotate({ identifier: "RebuildResult" })

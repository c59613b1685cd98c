// The service's metrics (effect Metric, exposed in Prometheus' text format at /metrics, see MetricsRoute.ts): HTTP
// requests by route template and status with their latency, the instances, jobs and incidents the engine produces,
// commits, and the node's own state (requests in flight, resident entities). Route labels are templates
// (`/api/v1/process-instances/{id}`), never raw ids, so the series stay few.
import { type Context, Effect, Metric } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import type { InstanceEvent } from "../engine/InstanceState.ts"

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** A counter that only goes up (all of the service's are); `attributes` make it one series of its family. */
const counter = (name: string, description: string, attributes?: Metric.Metric.Attributes) =>
  Metric.counter(name, { description, incremental: true, attributes })

// A labelled series is a metric of its own with its attributes fixed, made once per label set (see `labelled`), not
// `Metric.withAttributes` of one shared metric: that adds the attributes to the context at every update, and the
// shared metric computes its series key again (a sorted JSON text) whenever the label set differs from the previous
// update's — every HTTP request, with mixed routes. The exported text is the same.
const httpRequests = (attributes: Metric.Metric.Attributes) =>
  counter("flowcore_http_requests_total", "HTTP requests answered", attributes)
const httpRequestSeconds = (attributes: Metric.Metric.Attributes) =>
  Metric.histogram("flowcore_http_request_duration_seconds", {
    description: "time to answer an HTTP request",
    boundaries: LATENCY_BUCKETS,
    attributes
  })
export const commitSeconds = Metric.histogram("flowcore_commit_duration_seconds", {
  description: "time of an instance command's commit (one transaction)",
  boundaries: LATENCY_BUCKETS
})
export const commitEvents = Metric.histogram("flowcore_commit_events", {
  description: "history events written per commit",
  boundaries: [1, 2, 4, 8, 16, 32, 64, 128]
})
export const commitBatchSize = Metric.histogram("flowcore_commit_batch_size", {
  description: "instance commands committed together in one transaction (group commit)",
  boundaries: [1, 2, 4, 8, 16, 32, 64]
})
/**
 * A counter with one label whose values are known: each value's series made once, so counting builds no attributes;
 * answers the function that counts one for a value.
 */
const countedBy = <const Value extends string>(
  name: string,
  description: string,
  label: string,
  values: ReadonlyArray<Value>
): (value: Value) => Effect.Effect<void> => {
  const series = new Map(values.map((value) => [value, counter(name, description, { [label]: value })]))
  return (value) => Metric.update(series.get(value)!, 1)
}
export type CommitWay = "one_statement" | "transaction" | "one_by_one"
export const countCommit = countedBy<CommitWay>(
  "flowcore_commits_total",
  "group-committed batches of instance commands by how they were written: as one statement, as a " +
    "transaction of several (writes that must see earlier ones), or command by command (after a batch failed)",
  "as",
  ["one_statement", "transaction", "one_by_one"]
)
export type AuditWay = "with_command" | "alone" | "corrected"
export const countAuditRecord = countedBy<AuditWay>(
  "flowcore_audit_records_total",
  "audit records by how they were written: with the request's instance command, in its commit, or alone after the " +
    "response; `corrected`: written with a command, then made to say the response's other status",
  "written",
  ["with_command", "alone", "corrected"]
)
export type InstanceLoad = "row" | "lookup"
export const countInstanceLoad = countedBy<InstanceLoad>(
  "flowcore_instance_loads_total",
  "instances brought into this node's memory for a command, by where their state came from: `row` read for the " +
    "command, `lookup` read with the subscription lookup of the message that the command delivers",
  "from",
  ["row", "lookup"]
)
export const jobsPushed = counter(
  "flowcore_jobs_pushed_total",
  "jobs committed leased to a worker waiting on this node and handed to it (job push)"
)
export const jobsActivated = counter("flowcore_jobs_activated_total", "jobs handed to workers")
export const jobsAnnounced = counter(
  "flowcore_jobs_announced_total",
  "jobs made available on this node with no waiting worker here to push them to: announced to the workers that wait " +
    "or look (created, failed with retries left, given retries again, retried now)"
)
export const requestsInFlight = Metric.gauge("flowcore_http_requests_in_flight", {
  description: "requests this node is answering"
})
export const activeEntities = Metric.gauge("flowcore_entities_active", {
  description: "entities resident on this node: the cluster's and the process instances in memory"
})
export const residentInstances = Metric.gauge("flowcore_instances_resident", {
  description: "process instances in this node's memory (cluster/ResidentInstances.ts)"
})
export const timerLagSeconds = Metric.gauge("flowcore_timer_lag_seconds", {
  description: "how late the last timers fired"
})

/** The process's memory, read at each scrape (the names prom-client's default metrics use). */
const memoryGauges = {
  rss: Metric.gauge("process_resident_memory_bytes", { description: "resident set size of the process" }),
  heapTotal: Metric.gauge("nodejs_heap_size_total_bytes", { description: "V8 heap reserved" }),
  heapUsed: Metric.gauge("nodejs_heap_size_used_bytes", { description: "V8 heap in use (live and not yet collected)" }),
  external: Metric.gauge("nodejs_external_memory_bytes", {
    description: "memory outside the V8 heap held by JavaScript objects (buffers)"
  })
}
/**
 * How late the event loop ran its callbacks since the previous scrape (prom-client's names): a long synchronous
 * piece of work, or a long GC pause, delays every request on the node by as much.
 */
const LOOP_SAMPLE_MS = 10
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS })
loopDelay.enable()
const loopGauges = {
  p50: Metric.gauge("nodejs_eventloop_lag_p50_seconds", {
    description: "event loop delay, median since the last scrape"
  }),
  p99: Metric.gauge("nodejs_eventloop_lag_p99_seconds", { description: "event loop delay, p99 since the last scrape" }),
  max: Metric.gauge("nodejs_eventloop_lag_max_seconds", {
    description: "event loop delay, longest since the last scrape"
  })
}

/** The process's memory and event loop delay, read at a scrape (the delay's histogram starts again after it). */
export const recordProcess: Effect.Effect<void> = Effect.suspend(() => {
  const usage = process.memoryUsage()
  // Node measures the time between its sampling timer's runs: the delay is what exceeds the sampling interval. Read
  // before the histogram starts again.
  const sampled = loopDelay.count > 0
  const seconds = (nanoseconds: number) =>
    !sampled || !Number.isFinite(nanoseconds) ? 0 : Math.max(0, nanoseconds / 1e9 - LOOP_SAMPLE_MS / 1e3)
  const delays = {
    p50: seconds(loopDelay.percentile(50)),
    p99: seconds(loopDelay.percentile(99)),
    max: seconds(loopDelay.max)
  }
  loopDelay.reset()
  return Effect.all([
    Metric.update(memoryGauges.rss, usage.rss),
    Metric.update(memoryGauges.heapTotal, usage.heapTotal),
    Metric.update(memoryGauges.heapUsed, usage.heapUsed),
    Metric.update(memoryGauges.external, usage.external),
    Metric.update(loopGauges.p50, delays.p50),
    Metric.update(loopGauges.p99, delays.p99),
    Metric.update(loopGauges.max, delays.max)
  ], { discard: true })
})

const engineEvents = (event: string) =>
  counter(
    "flowcore_engine_events_total",
    "what the engine did, by event: instances started / completed / canceled, jobs created / completed / failed, " +
      "incidents raised / resolved",
    { event }
  )

const COUNTED: ReadonlySet<InstanceEvent["type"]> = new Set([
  "InstanceStarted",
  "InstanceCompleted",
  "InstanceCanceled",
  "JobCreated",
  "JobCompleted",
  "JobFailed",
  "JobErrorThrown",
  "UserTaskCreated",
  "UserTaskCompleted",
  "IncidentRaised",
  "IncidentResolved",
  "MessageCorrelated",
  "TimerFired"
])

/** A metric with fixed attributes, made once per distinct key (each made metric is hashed when it is updated). */
const labelled = <M>(make: (key: string) => M) => {
  const made = new Map<string, M>()
  return (key: string): M => {
    let metric = made.get(key)
    if (metric === undefined) {
      metric = make(key)
      // Keys are event types, or method, route template and status: a few hundred at most; a guard all the same.
      if (made.size < 10_000) made.set(key, metric)
    }
    return metric
  }
}

const engineEventCounter = labelled(engineEvents)

/** Metric updates made at once, in one effect operation (`Metric.update` is one per update). */
const updating = (update: (context: Context.Context<never>) => void): Effect.Effect<void> =>
  Effect.contextWith((context) => {
    update(context)
    return Effect.void
  })

/** Counts what a committed command did. */
export const countEngineEvents = (events: ReadonlyArray<InstanceEvent>): Effect.Effect<void> =>
  updating((context) => {
    for (const event of events) {
      if (COUNTED.has(event.type)) engineEventCounter(event.type).updateUnsafe(1, context)
    }
  })

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The route template of a path: ids become `{id}` (UUIDs and numbers), so each route is one series. */
export const routeTemplate = (path: string): string =>
  path.split("/").map((segment) => (UUID_SEGMENT.test(segment) || /^\d+$/.test(segment) ? "{id}" : segment)).join("/")

const requestCounter = labelled((key) => {
  const [method, route, status] = JSON.parse(key) as [string, string, string]
  return httpRequests({ method, route, status })
})
const requestTimer = labelled((key) => {
  const [method, route] = JSON.parse(key) as [string, string]
  return httpRequestSeconds({ method, route })
})

export const recordRequest = (method: string, path: string, status: number, seconds: number): Effect.Effect<void> => {
  const route = status === 404 && !path.startsWith("/api/v1/") ? "unmatched" : routeTemplate(path)
  const counted = requestCounter(JSON.stringify([method, route, String(status)]))
  const timed = requestTimer(JSON.stringify([method, route]))
  return updating((context) => {
    counted.updateUnsafe(1, context)
    timed.updateUnsafe(seconds, context)
  })
}

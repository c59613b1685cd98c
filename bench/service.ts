// npm run bench — the service as a user runs it: `node src/main.ts` (what `npm start` runs) in its own process, the
// load from this one over HTTP, on the embedded PGlite and on PostgreSQL, each next to a baseline of the same
// database measured in the same run. Prints one table:
//   instances/s   one-task instances completed per second (STARTERS clients start, WORKERS loops activate 32 jobs
//                 at a time and complete each), with start latency p50/p99, measured after INSTANCE_WARM_UP_SECONDS of
//                 the same load unmeasured (before session 17 it was measured cold, JIT and caches warming in the window)
//   correlations/s  N instances wait at a message catch event, then N messages are published, CONCURRENCY in flight
//   pgbench       on PostgreSQL, pgbench's single-row inserts on the same database before the service starts, at 16
//                 clients (issue 11's figure) and at CONCURRENCY, for PGBENCH_SECONDS each: what an independent check
//                 runs beside its load; the issue puts its target (1.0 × the Node baseline) at about 0.35 × pgbench
//   baseline tx/s single-row inserts, each its own transaction (autocommit, as pgbench's insert script runs them),
//                 through the same Node SQL client (@effect/sql-pg) at CONCURRENCY, measured before the service
//                 starts, after WARM_UP unmeasured inserts; also printed: the same insert between BEGIN and COMMIT (the form earlier
//                 rounds divided by; they measured it after the load, with the pool's connections still opening)
//   job push      p50/p99 from a job's creation to a long-polling worker holding it, at a light load
//   at half rate  publish p50/p99 and job push p50/p99 (WORKERS, then MANY_WORKERS long-polling workers; WORKERS job streams) at half of the measured
//                 correlation and instance rates, open-loop for HALF_SECONDS (bench/HalfRate.ts); with them, the
//                 instance commits' own times (the service's histogram) and the disk's fdatasync times meanwhile
//                 (bench/DiskProbe.ts, in DISK_DIR — the working directory by default — or PGlite's data directory);
//                 then the WORKERS long polls and streams again in a process of their own (bench/PushWorkers.ts), the
//                 starts from this one: the figure without this process's event loop
//   RSS           of the service process at the end
//   targets       issue 11's, each with the run's figure and whether it met it (the 100,000-waiting ones: bench:scale)
//   correlations are measured after min(WARM_UP, 1000) unmeasured publishes, to instances of their own
//   SECONDS=10 STARTERS=16 WORKERS=4 MANY_WORKERS=16 N=2000 CONCURRENCY=64 WARM_UP=3000 INSTANCE_WARM_UP_SECONDS=3 HALF_SECONDS=5
//   PGBENCH_SECONDS=5
//   DB=both|pglite|postgres npm run bench
//   HALF_PUBLISH_RATE=… HALF_START_RATE=…: the half-rate phases at these rates (to compare two builds at one load)
import { PgClient } from "@effect/sql-pg"
import { Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../src/config.ts"
import { DatabaseLive } from "../src/persistence/database/Database.ts"
import { testConfig } from "../test/support/TestApp.ts"
import { startDiskProbe } from "./DiskProbe.ts"
import { publishAtRate, pushAtRate, pushFromOwnProcess, streamPushAtRate } from "./HalfRate.ts"
import { machineSpeedMillis } from "./MachineSpeed.ts"
import { oneTaskLoad } from "./OneTaskLoad.ts"
import { cpuMark, cpuPer, databaseStats, printDatabaseCost } from "./OperationCost.ts"
import { pgbenchInserts } from "./Pgbench.ts"
import { summarizeNewestProfile } from "./ProfileSummary.ts"
import { printServiceReport, type ServiceRow } from "./ServiceReport.ts"
import {
  apiCall,
  BENCH_PASSWORD,
  commitsBetween,
  commitTimesOf,
  histogramOf,
  loopDelayOf,
  messageWaitModel,
  onFreshDatabase,
  percentile,
  rssOf,
  startService
} from "./ServiceUnderTest.ts"
import { sqlBaseline } from "./SqlBaseline.ts"

const SECONDS = Number(process.env["SECONDS"] ?? 10)
const STARTERS = Number(process.env["STARTERS"] ?? 16)
const WORKERS = Number(process.env["WORKERS"] ?? 4)
/** The half-rate job push once more with this many long-polling workers: enough that some wait when a job comes. */
const MANY_WORKERS = Number(process.env["MANY_WORKERS"] ?? 16)
const N = Number(process.env["N"] ?? 2000)
/** Unmeasured operations before each measured phase (the baseline's inserts, the correlations' publishes). */
const WARM_UP = Number(process.env["WARM_UP"] ?? 3000)
const PUBLISH_WARM_UP = Math.min(WARM_UP, 1000)
/** Seconds of the instance load run unmeasured before the measured SECONDS. */
const INSTANCE_WARM_UP_SECONDS = Number(process.env["INSTANCE_WARM_UP_SECONDS"] ?? 3)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 64)
/** Job push: one instance started every this many ms while a worker waits in a long poll. */
const PUSH_EVERY_MS = Number(process.env["PUSH_EVERY_MS"] ?? 20)
/** How long each half-rate measurement runs (HalfRate.ts). */
const HALF_SECONDS = Number(process.env["HALF_SECONDS"] ?? 5)
const DB = (process.env["DB"] ?? "both").toLowerCase()
/** The half-rate phases at these rates instead of half the measured ones (to compare two builds at the same load). */
const HALF_PUBLISH_RATE = process.env["HALF_PUBLISH_RATE"] === undefined
  ? undefined
  : Number(process.env["HALF_PUBLISH_RATE"])
const HALF_START_RATE = process.env["HALF_START_RATE"] === undefined
  ? undefined
  : Number(process.env["HALF_START_RATE"])
/** How long pgbench runs at each client count (PostgreSQL only; skipped where pgbench is not installed). */
const PGBENCH_SECONDS = Number(process.env["PGBENCH_SECONDS"] ?? 5)
/** The service's request-time histogram, and the publish route's labels in it (the half-rate publish phase). */
const HTTP_SECONDS = "flowcore_http_request_duration_seconds"
const PUBLISH_ROUTE = "route=\"/api/v1/messages\""
/** Where the disk probe writes on PostgreSQL: a directory on the database's disk (here the repository shares it). */
const DISK_DIR = process.env["DISK_DIR"] ?? process.cwd()
/** npm run bench:profile: the service writes a V8 CPU profile (bench-profiles/) and its top functions are printed. */
const PROFILE = process.env["PROFILE"] === "1"
const serviceTask = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")
/** start -> a service task whose job type is the process id -> end, as a JSON graph. */
const oneJob = (id: string) => ({
  id,
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: id } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
})
const startBenchService = (env: Record<string, string>) =>
  startService(env, PROFILE ? ["--cpu-prof", "--cpu-prof-dir=bench-profiles"] : [])

const run = async (
  label: string,
  env: Record<string, string>,
  baselineLayer: Layer.Layer<SqlClient.SqlClient, unknown>,
  /** A directory on the database's disk, for the disk probe at half rate (DiskProbe.ts). */
  diskDir: string
): Promise<ServiceRow> => {
  // The baseline first, on a quiet machine: measured after the load, it met the service's background work (the outbox,
  // the statistics keeper, PostgreSQL's checkpoints of what the load wrote) and came out lower and noisier.
  /** PostgreSQL's counters of transactions and rows (not on PGlite). */
  const statsUrl = env["DATABASE_URL"]
  const tx = await sqlBaseline(baselineLayer, { concurrency: CONCURRENCY, total: Math.max(5000, N), warmUp: WARM_UP })
  // pgbench's C client on the same database, before the service starts like the Node baseline (PostgreSQL only).
  const pgbench = env["DATABASE_URL"] === undefined
    ? undefined
    : pgbenchInserts(env["DATABASE_URL"], [16, CONCURRENCY], PGBENCH_SECONDS)
  const service = await startBenchService(env)
  const call = (token: string, method: string, path: string, body?: unknown, contentType = "application/json") =>
    apiCall(service.base, token, method, path, body, contentType)
  try {
    const login = await (await fetch(`${service.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: BENCH_PASSWORD })
    })).json() as { data: { token: string } }
    const token = login.data.token

    // Instances: start -> service task -> end, for SECONDS.
    const oneTask = await call(token, "POST", "/deployments", serviceTask, "application/xml")
    const load = (seconds: number) =>
      oneTaskLoad((method, path, body) => call(token, method, path, body), oneTask.id, {
        seconds,
        starters: STARTERS,
        workers: WORKERS
      })
    // Unmeasured first, like the baseline and the publishes: the service's code paths compiled, its caches filled.
    await load(INSTANCE_WARM_UP_SECONDS)
    const stats0 = statsUrl === undefined ? undefined : await databaseStats(statsUrl)
    const cpu0 = cpuMark(service.child.pid!)
    const t0 = performance.now()
    const { completed, startLatencies } = await load(SECONDS)
    const latencies = [...startLatencies]
    const instancesPerSecond = Math.round(completed / ((performance.now() - t0) / 1000))
    const instanceCpu = cpuPer(cpu0, service.child.pid!, completed)
    if (statsUrl !== undefined && stats0 !== undefined) {
      printDatabaseCost(statsUrl, label, stats0, await databaseStats(statsUrl), completed)
    }
    latencies.sort((a, b) => a - b)

    // Correlations: N waiting instances, then N publishes with CONCURRENCY in flight.
    const waiting = await call(token, "POST", "/deployments", messageWaitModel("bench-wait", "bench-paid"))
    let started = 0
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (started < N + PUBLISH_WARM_UP) {
        const i = started++
        await call(token, "POST", "/process-instances", { deploymentId: waiting.id, variables: { key: `k-${i}` } })
      }
    }))
    // Unmeasured first, like the baseline: PUBLISH_WARM_UP publishes to instances of their own warm the publish path.
    let warmed = 0
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (warmed < PUBLISH_WARM_UP) {
        const i = N + warmed++
        await call(token, "POST", "/messages", { messageName: "bench-paid", correlationKey: `k-${i}` })
      }
    }))
    let published = 0
    const cpuC = cpuMark(service.child.pid!)
    const publishLatencies: Array<number> = []
    const c0 = performance.now()
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (published < N) {
        const i = published++
        const t = performance.now()
        const result = await call(token, "POST", "/messages", { messageName: "bench-paid", correlationKey: `k-${i}` })
        if (result.correlatedCount !== 1) throw new Error(`message k-${i} correlated ${result.correlatedCount}`)
        publishLatencies.push(performance.now() - t)
      }
    }))
    const correlationsPerSecond = Math.round(N / ((performance.now() - c0) / 1000))
    const correlationCpu = cpuPer(cpuC, service.child.pid!, N)
    publishLatencies.sort((a, b) => a - b)

    // Job push: a worker waits in a long poll; instances start one every PUSH_EVERY_MS (a light load); the latency is
    // from the job's creation (its createdAt, the commit's clock — this machine's) to the worker holding it.
    const probe = await call(token, "POST", "/deployments", oneJob("bench-push"))
    const pushLatencies: Array<number> = []
    const pushUntil = performance.now() + 3_000
    await Promise.all([
      (async () => {
        while (performance.now() < pushUntil) {
          await call(token, "POST", "/process-instances", { deploymentId: probe.id })
          await new Promise((resolve) => setTimeout(resolve, PUSH_EVERY_MS))
        }
      })(),
      (async () => {
        while (performance.now() < pushUntil + 500) {
          const { jobs } = await call(token, "POST", "/jobs/activation", {
            type: "bench-push",
            worker: "push-probe",
            maxJobsToActivate: 8,
            timeout: 60_000,
            requestTimeout: 1_000
          })
          const now = Date.now()
          for (const job of jobs as Array<{ createdAt: string }>) pushLatencies.push(now - Date.parse(job.createdAt))
        }
      })()
    ])
    pushLatencies.sort((a, b) => a - b)

    // At half of the maximum rates measured above, open-loop (HalfRate.ts): publish latency, and job push with
    // WORKERS long-polling workers taking and completing the jobs.
    const asAdmin = (method: string, path: string, body?: unknown) => call(token, method, path, body)
    await loopDelayOf(service.base, token)
    const disk = startDiskProbe(diskDir)
    const halfFrom = Date.now()
    const beforePublish = await commitTimesOf(service.base, token)
    const publishesBefore = await histogramOf(service.base, token, HTTP_SECONDS, PUBLISH_ROUTE)
    const publishRate = HALF_PUBLISH_RATE ?? correlationsPerSecond / 2
    const startRate = HALF_START_RATE ?? instancesPerSecond / 2
    const publishHalf = await publishAtRate(asAdmin, waiting.id, publishRate, HALF_SECONDS)
    const publishLoop = await loopDelayOf(service.base, token)
    const publishCommits = commitsBetween(beforePublish, await commitTimesOf(service.base, token))
    const publishServer = commitsBetween(
      publishesBefore,
      await histogramOf(service.base, token, HTTP_SECONDS, PUBLISH_ROUTE)
    )
    const halfTask = await call(token, "POST", "/deployments", oneJob("bench-half"))
    await loopDelayOf(service.base, token)
    const beforePush = await commitTimesOf(service.base, token)
    const pushHalf = await pushAtRate(asAdmin, halfTask.id, "bench-half", WORKERS, startRate, HALF_SECONDS)
    const pushHalfMany = await pushAtRate(asAdmin, halfTask.id, "bench-half", MANY_WORKERS, startRate, HALF_SECONDS)
    const pushLoop = await loopDelayOf(service.base, token)
    const pushCommits = commitsBetween(beforePush, await commitTimesOf(service.base, token))
    const openStream = (query: string, signal: AbortSignal) =>
      fetch(`${service.base}/jobs/stream?${query}`, { headers: { authorization: `Bearer ${token}` }, signal })
    const streamHalf = await streamPushAtRate(
      asAdmin,
      openStream,
      halfTask.id,
      "bench-half",
      WORKERS,
      startRate,
      HALF_SECONDS
    )
    // The same two push phases with the workers in a process of their own (the bench's own loop left out).
    const ownWorkers = (mode: "poll" | "stream") =>
      pushFromOwnProcess(
        asAdmin,
        { base: service.base, token, jobType: "bench-half", workers: WORKERS, mode },
        halfTask.id,
        startRate,
        HALF_SECONDS
      )
    const pushOwn = await ownWorkers("poll")
    const streamOwn = await ownWorkers("stream")
    const diskHalf = (await disk.stop()).between(halfFrom, Date.now())
    const rss = rssOf(service.child.pid!)
    return {
      label,
      instancesPerSecond,
      startP50: Math.round(percentile(latencies, 50)),
      startP99: Math.round(percentile(latencies, 99)),
      correlationsPerSecond,
      publishP50: Math.round(percentile(publishLatencies, 50)),
      publishP99: Math.round(percentile(publishLatencies, 99)),
      pushP50: Math.round(percentile(pushLatencies, 50)),
      pushP99: Math.round(percentile(pushLatencies, 99)),
      publishHalf,
      publishRate,
      startRate,
      publishLoop,
      pushLoop,
      publishCommits,
      publishServer,
      pushCommits,
      diskHalf,
      pushHalf,
      pushHalfMany,
      streamHalf,
      pushOwn,
      streamOwn,
      baseline: tx,
      pgbench,
      rss,
      instanceCpu,
      correlationCpu
    }
  } finally {
    if (PROFILE) {
      // a graceful stop writes the profile
      await new Promise((resolve) => {
        service.child.once("exit", resolve)
        service.child.kill("SIGTERM")
      })
      summarizeNewestProfile("bench-profiles")
    } else service.child.kill("SIGKILL")
  }
}

const baselineOn = (config: ReturnType<typeof testConfig>) =>
  DatabaseLive.pipe(Layer.provide(AppConfig.layer(config))) as unknown as Layer.Layer<SqlClient.SqlClient, unknown>

const speedAtStart = machineSpeedMillis()
const rows: Array<ServiceRow> = []
if (DB === "both" || DB === "pglite") {
  const dataDir = mkdtempSync(join(tmpdir(), "flowcore-bench-"))
  const baselineDir = mkdtempSync(join(tmpdir(), "flowcore-bench-baseline-"))
  try {
    rows.push(
      await run(
        "PGlite",
        { DATA_DIR: dataDir },
        baselineOn(testConfig({ databaseUrl: undefined, dataDir: baselineDir })),
        dataDir
      )
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(baselineDir, { recursive: true, force: true })
  }
}
if (DB === "both" || DB === "postgres") {
  await onFreshDatabase("postgres", "bench", async (env) => {
    const pg = PgClient.layer({
      url: Redacted.make(env["DATABASE_URL"]!),
      maxConnections: CONCURRENCY
    }) as unknown as Layer.Layer<
      SqlClient.SqlClient,
      unknown
    >
    rows.push(await run("PostgreSQL", env, pg, DISK_DIR))
  })
}

const speedAtEnd = machineSpeedMillis()
console.log(
  `\nmachine speed (bench/MachineSpeed.ts, lower is faster): ${speedAtStart} ms at the start, ${speedAtEnd} ms at the ` +
    "end — compare runs only at similar speeds, or as interleaved pairs"
)
printServiceReport(rows, {
  starters: STARTERS,
  workers: WORKERS,
  manyWorkers: MANY_WORKERS,
  seconds: SECONDS,
  warmUpSeconds: INSTANCE_WARM_UP_SECONDS,
  correlations: N,
  concurrency: CONCURRENCY,
  halfSeconds: HALF_SECONDS
})

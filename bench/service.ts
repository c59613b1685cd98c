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
//   correlations are measured after min(WARM_UP, 1000) unmeasured publishes, to instances of their own
//   SECONDS=10 STARTERS=16 WORKERS=4 MANY_WORKERS=16 N=2000 CONCURRENCY=64 WARM_UP=3000 INSTANCE_WARM_UP_SECONDS=3 HALF_SECONDS=5
//   PGBENCH_SECONDS=5
//   DB=both|pglite|postgres npm run bench
//   HALF_PUBLISH_RATE=… HALF_START_RATE=…: the half-rate phases at these rates (to compare two builds at one load)
import { PgClient } from "@effect/sql-pg"
import { Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../src/config.ts"
import { DatabaseLive } from "../src/persistence/Database.ts"
import { testConfig } from "../test/support/TestApp.ts"
import { startDiskProbe } from "./DiskProbe.ts"
import { publishAtRate, pushAtRate, pushFromOwnProcess, streamPushAtRate } from "./HalfRate.ts"
import { MAX_CONNECTIONS } from "./LeanHttp.ts"
import { machineSpeedMillis } from "./MachineSpeed.ts"
import { oneTaskLoad } from "./OneTaskLoad.ts"
import { pgbenchInserts } from "./Pgbench.ts"
import {
  apiCall,
  BENCH_PASSWORD,
  commitsBetween,
  commitTimesOf,
  cpuMillisOf,
  histogramOf,
  loopDelayOf,
  messageWaitModel,
  onFreshDatabase,
  percentile,
  postgresCpuMillis,
  rssOf,
  startService
} from "./ServiceUnderTest.ts"

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

/**
 * Single-row inserts at CONCURRENCY through @effect/sql-pg, on a database like the service's: each INSERT on its own
 * (one statement, its own transaction: the baseline) and each wrapped in BEGIN … COMMIT (for comparison with earlier
 * rounds).
 */
const baseline = async (layer: Layer.Layer<SqlClient.SqlClient, unknown>) => {
  const runtime = ManagedRuntime.make(layer)
  try {
    const sql = await runtime.runPromise(SqlClient.SqlClient)
    await runtime.runPromise(
      sql`CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, n integer NOT NULL, at timestamptz NOT NULL)`
    )
    const rate = async (explicitTransaction: boolean, total = Math.max(5000, N)) => {
      let next = 0
      const t0 = performance.now()
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          const insert = sql`INSERT INTO bench_baseline (n, at) VALUES (${next++}, now())`
          await runtime.runPromise(explicitTransaction ? sql.withTransaction(insert) : insert)
        }
      }))
      return Math.round(total / ((performance.now() - t0) / 1000))
    }
    // Unmeasured first: the pool opens its connections (CONCURRENCY of them on PostgreSQL) on first use, and the client's
    // code warms up. A warm-up of 256 inserts was too short (session 14): the next 2,000 still ran at half the steady
    // rate (1,300–2,300 against 4,300–5,100 tx/s on PostgreSQL, chunk by chunk), and every ratio printed until then
    // divided by that cold figure.
    await rate(false, WARM_UP)
    return { autocommit: await rate(false), explicit: await rate(true) }
  } finally {
    await runtime.dispose()
  }
}

const run = async (
  label: string,
  env: Record<string, string>,
  baselineLayer: Layer.Layer<SqlClient.SqlClient, unknown>,
  /** A directory on the database's disk, for the disk probe at half rate (DiskProbe.ts). */
  diskDir: string
) => {
  // The baseline first, on a quiet machine: measured after the load, it met the service's background work (the outbox,
  // the statistics keeper, PostgreSQL's checkpoints of what the load wrote) and came out lower and noisier.
  const tx = await baseline(baselineLayer)
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
    const stats0 = await databaseStats(label)
    const cpu0 = { service: cpuMillisOf(service.child.pid!), database: postgresCpuMillis(), load: loadCpuMillis() }
    const t0 = performance.now()
    const { completed, startLatencies } = await load(SECONDS)
    const latencies = [...startLatencies]
    const instancesPerSecond = Math.round(completed / ((performance.now() - t0) / 1000))
    const instanceCpu = cpuPer(cpu0, service.child.pid!, completed)
    const stats1 = await databaseStats(label)
    if (stats0 !== undefined && stats1 !== undefined) {
      const per = (key: keyof DatabaseStats) => ((stats1[key] - stats0[key]) / Math.max(1, completed)).toFixed(1)
      console.log(
        `${label}: per completed instance ${per("commits")} transactions, ${per("inserted")} rows inserted, ` +
          `${per("updated")} updated, ${per("returned")} read (pg_stat_database)`
      )
      if (process.env["TABLE_STATS"] === "1") {
        console.log(
          execFileSync("psql", [
            statsUrl!,
            "-c",
            `SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, seq_scan,
          seq_tup_read, idx_scan FROM pg_stat_user_tables ORDER BY n_tup_ins + seq_tup_read DESC LIMIT 12`
          ]).toString()
        )
      }
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
    const cpuC = { service: cpuMillisOf(service.child.pid!), database: postgresCpuMillis(), load: loadCpuMillis() }
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
      summarizeProfiles()
    } else service.child.kill("SIGKILL")
  }
}

/** Self time by package / file and by function, of the newest profile in bench-profiles/. */
const summarizeProfiles = () => {
  const dir = "bench-profiles"
  const newest = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort().at(-1)
  if (newest === undefined) return
  const profile = JSON.parse(readFileSync(join(dir, newest), "utf8")) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>
    samples: Array<number>
    timeDeltas: Array<number>
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const byFile = new Map<string, number>()
  const byFunction = new Map<string, number>()
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame
    const url = frame.url.replace(/.*node_modules\//, "").replace(/.*\/src\//, "src/")
    const file = url === ""
      ? `(${frame.functionName})`
      : url.split("/").slice(0, url.startsWith("src/") ? 3 : 2).join("/")
    byFile.set(file, (byFile.get(file) ?? 0) + micros)
    const fn = `${frame.functionName || "(anonymous)"} ${url}:${frame.lineNumber}`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros)
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) =>
      `  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`
    ).join("\n")
  console.log(
    `\nCPU profile ${join(dir, newest)}: self time by file\n${top(byFile, 20)}\nby function\n${top(byFunction, 20)}`
  )
}

interface DatabaseStats {
  readonly commits: number
  readonly inserted: number
  readonly updated: number
  readonly returned: number
}
/** The bench database's counters (PostgreSQL only; they lag up to a second, so they are read after a pause). */
let statsUrl: string | undefined
const databaseStats = async (label: string): Promise<DatabaseStats | undefined> => {
  if (label !== "PostgreSQL" || statsUrl === undefined) return undefined
  await new Promise((resolve) => setTimeout(resolve, 1100))
  const out = execFileSync("psql", [
    statsUrl,
    "-Atc",
    "SELECT xact_commit, tup_inserted, tup_updated, tup_returned FROM pg_stat_database WHERE datname = current_database()"
  ]).toString().trim().split("|").map(Number)
  return { commits: out[0]!, inserted: out[1]!, updated: out[2]!, returned: out[3]! }
}

/** This process's CPU so far (the load generator), in ms. */
const loadCpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/**
 * Milliseconds of CPU per operation since `from`: the service process's, PostgreSQL's (all its processes), and this
 * load generator's (it shares the machine's cores with both).
 */
const cpuPer = (from: { service: number; database: number; load: number }, pid: number, operations: number) => ({
  service: (cpuMillisOf(pid) - from.service) / Math.max(1, operations),
  database: (postgresCpuMillis() - from.database) / Math.max(1, operations),
  load: (loadCpuMillis() - from.load) / Math.max(1, operations)
})

const baselineOn = (config: ReturnType<typeof testConfig>) =>
  DatabaseLive.pipe(Layer.provide(AppConfig.layer(config))) as unknown as Layer.Layer<SqlClient.SqlClient, unknown>

const speedAtStart = machineSpeedMillis()
const rows = []
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
    statsUrl = env["DATABASE_URL"]!
    const pg = PgClient.layer({ url: Redacted.make(statsUrl), maxConnections: CONCURRENCY }) as unknown as Layer.Layer<
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
console.log(
  `\nservice in its own process (node src/main.ts), load over HTTP from another: ${STARTERS} starters + ${WORKERS} workers for ${SECONDS} s after ${INSTANCE_WARM_UP_SECONDS} s unmeasured; ` +
    `${N} correlations with ${CONCURRENCY} in flight`
)
console.log(
  "| database | instances/s | start p50/p99 ms | correlations/s | publish p50/p99 ms | baseline tx/s | correlations ÷ baseline | job push p50/p99 ms | RSS MB |"
)
console.log("|---|---|---|---|---|---|---|---|---|")
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.instancesPerSecond} | ${r.startP50}/${r.startP99} | ${r.correlationsPerSecond} | ${r.publishP50}/${r.publishP99} | ` +
      `${r.baseline.autocommit} | ${
        (r.correlationsPerSecond / r.baseline.autocommit).toFixed(3)
      } | ${r.pushP50}/${r.pushP99} | ${r.rss} |`
  )
}
for (const r of rows) {
  if (r.pgbench === undefined) continue
  const [issue, ours] = r.pgbench.byClients
  console.log(
    `(${r.label}: pgbench single-row inserts on the same database, ${issue!.tps} tps at ${
      issue!.clients
    } clients and ` +
      `${ours!.tps} at ${ours!.clients}; correlations ÷ pgbench at ${issue!.clients} clients ` +
      `${(r.correlationsPerSecond / issue!.tps).toFixed(3)} — issue 11 puts its target of 1.0 × the Node baseline at ` +
      `about 0.35 × pgbench)`
  )
}
for (const r of rows) {
  console.log(
    `(${r.label}: the same insert between BEGIN and COMMIT, ${r.baseline.explicit} tx/s; correlations ÷ that ` +
      `${(r.correlationsPerSecond / r.baseline.explicit).toFixed(3)}, the ratio earlier rounds reported)`
  )
}
console.log(
  `\nat half of those rates, open-loop for ${HALF_SECONDS} s (issue 11: publish p99 ≤ 50 ms, job push p99 < 20 ms)`
)
console.log(
  `| database | publishes/s | publish p50/p99 ms | starts/s | job push p50/p99 ms: ${WORKERS} long-polling workers | ` +
    `${MANY_WORKERS} long-polling workers | ${WORKERS} job streams | service event loop delay p99/max ms: publish, push |`
)
console.log("|---|---|---|---|---|---|---|---|")
for (const r of rows) {
  console.log(
    `| ${r.label} | ${Math.floor(r.publishRate)} | ${r.publishHalf.p50}/${r.publishHalf.p99} | ` +
      `${
        Math.floor(r.startRate)
      } | ${r.pushHalf.p50}/${r.pushHalf.p99} | ${r.pushHalfMany.p50}/${r.pushHalfMany.p99} | ` +
      `${r.streamHalf.p50}/${r.streamHalf.p99} | ` +
      `${r.publishLoop.p99}/${r.publishLoop.max}, ${r.pushLoop.p99}/${r.pushLoop.max} |`
  )
}
// How much of the tails is the commit's: the instance commits' own times in the same phases (the service's histogram).
for (const r of rows) {
  const commits = (c: typeof r.publishCommits) =>
    `${c.count} commits, 99 % within ${c.p99} ms (a bucket bound), ${c.over50} over 50 ms`
  console.log(
    `(${r.label}, at half rate — the publishes' time in the service: 99 % within ${r.publishServer.p99} ms, ` +
      `${r.publishServer.over50} of ${r.publishServer.count} over 50 ms; instance commits in the publish phase: ` +
      `${commits(r.publishCommits)}; ` +
      `long-poll push phases: ${commits(r.pushCommits)}; the disk meanwhile, an 8 KiB fdatasync every 20 ms: ` +
      `p99 ${r.diskHalf.p99} ms, max ${r.diskHalf.max} ms, ${r.diskHalf.over20} of ${r.diskHalf.count} over 20 ms; ` +
      `connections the client opened during the phases, beyond the ${MAX_CONNECTIONS} opened before each: ` +
      `${r.publishHalf.connectionsOpened}, ${r.pushHalf.connectionsOpened}, ${r.pushHalfMany.connectionsOpened}, ` +
      `${r.streamHalf.connectionsOpened})`
  )
}
// The long polls' figure split by how each job reached its worker (HalfRate.ts pushAtRate).
for (const r of rows) {
  for (const [workers, push] of [[WORKERS, r.pushHalf], [MANY_WORKERS, r.pushHalfMany]] as const) {
    console.log(
      `(${r.label}, ${workers} long-polling workers: ${push.handed.count} jobs handed to a poll in their creating commit, ` +
        `p50/p99 ${push.handed.p50}/${push.handed.p99} ms; ${push.found.count} found by a look that began after ` +
        `them, ${push.found.p50}/${push.found.p99} ms)`
    )
  }
}
// The push phases again with the workers in a process of their own (HalfRate.ts pushFromOwnProcess).
for (const r of rows) {
  console.log(
    `(${r.label}, job push with the ${WORKERS} workers in a process of their own, the starts from this one: ` +
      `long polls p50/p99 ${r.pushOwn.p50}/${r.pushOwn.p99} ms (${r.pushOwn.count} jobs), streams ` +
      `${r.streamOwn.p50}/${r.streamOwn.p99} ms (${r.streamOwn.count} jobs))`
  )
}
// CPU per operation does not depend on how busy the machine is (the rates above do): compare these across changes.
console.log(
  "\nCPU ms per operation (service process / PostgreSQL processes / this load generator; PGlite runs inside the service)"
)
console.log("| database | per instance | per correlation |")
console.log("|---|---|---|")
const ms = (cpu: { service: number; database: number; load: number }) =>
  `${cpu.service.toFixed(2)} / ${cpu.database.toFixed(2)} / ${cpu.load.toFixed(2)}`
for (const r of rows) console.log(`| ${r.label} | ${ms(r.instanceCpu)} | ${ms(r.correlationCpu)} |`)

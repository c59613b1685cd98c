// npm run bench:correlation — message correlation throughput end to end, against the database's own pace.
// N instances of start -> message catch (correlationKey `= orderId`) -> end are started and left waiting, each with a
// distinct key; then N messages are published concurrently over HTTP (POST /messages). A 202 is answered only after the
// instance entity applied CorrelateMessage and committed it (Messages.publish awaits the entity's reply, which follows
// its transaction), and with this model that commit completes the instance: the latency of one POST is
// "published -> moved on and committed". Each reply must name its instance, and at the end all N instances must be
// COMPLETED in the database. Baseline: N single-row INSERT transactions through the app's own SqlClient, same
// concurrency, half just before and half just after the publishing. The tracked figure is correlations/s ÷ baseline
// transactions/s, per database. N above 10,000 hits the cluster's cap on resident entities (see MAX_RESIDENT).
//   N=2000 npm run bench:correlation            (or: npm run bench:correlation -- --n 2000)
//   DB=pglite | DB=postgres                     one database only (default: PGlite, then PostgreSQL if reachable)
//   CONCURRENCY=64 CREATE_CONCURRENCY=32        publishes / baseline transactions in flight; instance starts in flight
//   BENCH_DATABASE_URL=postgres://...           PostgreSQL server (default DATABASE_URL, else
//                                               postgres://postgres@127.0.0.1:5432/test): a fresh database is created
//                                               on it for the run and dropped afterwards
//   PGLITE_DATA_DIR=tmp                         file-backed PGlite in a fresh temp dir (default: in memory)
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { OutboxRelay } from "../src/actors/OutboxRelay.ts"
import { makeApp } from "../src/App.ts"
import { configFromEnv } from "../src/config.ts"

const flag = (name: string): string | undefined => {
  const args = process.argv.slice(2)
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === `--${name}`) return args[i + 1]
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3)
  }
  return undefined
}

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined || raw.trim() === "") return fallback
  const value = Number(raw.replaceAll("_", ""))
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`)
  return value
}

const N = positiveInt("N", flag("n") ?? process.env["N"], 10_000)
const CONCURRENCY = positiveInt("CONCURRENCY", flag("concurrency") ?? process.env["CONCURRENCY"], 64)
const CREATE_CONCURRENCY = positiveInt("CREATE_CONCURRENCY", process.env["CREATE_CONCURRENCY"], 32)
const WARMUP = Math.min(500, Math.max(20, Math.floor(N / 10)))
// effect/cluster's ShardingConfig.maxResidentEntities default; src/cluster/Cluster.ts does not change it.
const MAX_RESIDENT = 10_000
const DB = (flag("db") ?? process.env["DB"] ?? "both").toLowerCase()
if (!["both", "pglite", "postgres", "postgresql"].includes(DB)) {
  throw new Error(`DB must be pglite, postgres or both, got "${DB}"`)
}
const PG_SERVER_URL = process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"] ??
  "postgres://postgres@127.0.0.1:5432/test"
const MESSAGE_NAME = "bench-order-paid"

const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="Definitions_bench_correlation" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="bench-correlation" name="Bench: await order payment" isExecutable="true">
    <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="paid" />
    <bpmn:intermediateCatchEvent id="paid" name="Order paid">
      <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
      <bpmn:messageEventDefinition id="paid_def" messageRef="Message_paid" />
    </bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="paid" targetRef="end" />
    <bpmn:endEvent id="end"><bpmn:incoming>f2</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
  <bpmn:message id="Message_paid" name="${MESSAGE_NAME}">
    <bpmn:extensionElements><zeebe:subscription correlationKey="= orderId" /></bpmn:extensionElements>
  </bpmn:message>
</bpmn:definitions>`

interface Stats {
  readonly count: number
  readonly seconds: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
}

interface Result {
  readonly label: string
  readonly setup: Stats
  readonly drainSeconds: number
  readonly correlation: Stats
  readonly baseline: Stats
  readonly rssMb: number
}

const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

interface Timed {
  readonly seconds: number
  readonly latencies: Float64Array
}

/** Runs task(0..count-1) with at most `concurrency` in flight; returns the wall time and the latency of each. */
const pool = async (
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
  offset = 0
): Promise<Timed> => {
  const latencies = new Float64Array(count)
  let next = 0
  const failures: Array<unknown> = []
  const t0 = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count && failures.length === 0) {
      const i = next++
      const t = performance.now()
      try {
        await task(offset + i)
      } catch (error) {
        failures.push(error)
      }
      latencies[i] = performance.now() - t
    }
  }))
  const seconds = (performance.now() - t0) / 1000
  if (failures.length > 0) throw failures[0]
  return { seconds, latencies }
}

/** Throughput and latency percentiles over one or more timed runs (their wall times added up). */
const statsOf = (...runs: ReadonlyArray<Timed>): Stats => {
  const latencies = new Float64Array(runs.reduce((n, run) => n + run.latencies.length, 0))
  let at = 0
  for (const run of runs) {
    latencies.set(run.latencies, at)
    at += run.latencies.length
  }
  latencies.sort()
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0)
  return {
    count: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99)
  }
}

const run = async (label: string, env: Record<string, string | undefined>): Promise<Result> => {
  const config = configFromEnv({
    ...process.env,
    ...env,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    ADMIN_PASSWORD: "bench-password-1"
  })
  const runtime = ManagedRuntime.make(makeApp(config) as Layer.Layer<any, unknown, never>)
  try {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (!("port" in address)) throw new Error("not TCP")
    const base = `http://127.0.0.1:${address.port}/api/v1`
    const call = async (
      method: string,
      path: string,
      token: string | undefined,
      body: unknown,
      contentType = "application/json"
    ) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { "content-type": contentType, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })
      const json = await response.json() as { success: boolean; data: any; message?: string }
      if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${json.message}`)
      return { status: response.status, data: json.data }
    }
    const token = (await call("POST", "/auth/login", undefined, { username: "admin", password: "bench-password-1" }))
      .data.token as string
    const deployment = (await call("POST", "/deployments", token, xml, "application/xml")).data as { id: string }

    // N waiting instances, each with its own key. No extra warm-up instances: every instance entity stays resident
    // (maxIdleTime 5 minutes) and the runner admits at most MAX_RESIDENT of them (see the note at N > MAX_RESIDENT).
    const total = N
    const ids: Array<string> = new Array(total)
    const keyOf = (i: number) => `order-${i}`
    const start = async (i: number) => {
      const { data } = await call("POST", "/process-instances", token, {
        deploymentId: deployment.id,
        variables: { orderId: keyOf(i) }
      })
      if (data.state !== "ACTIVE") throw new Error(`instance ${data.id} is ${data.state}, expected it waiting (ACTIVE)`)
      ids[i] = data.id
    }
    const publish = async (k: number) => {
      const { status, data } = await call("POST", "/messages", token, {
        messageName: MESSAGE_NAME,
        correlationKey: keyOf(k),
        variables: { paidAt: k }
      })
      if (status !== 202 || data.correlatedCount !== 1 || data.instanceIds[0] !== ids[k]) {
        throw new Error(
          `message ${keyOf(k)}: ${status} ${JSON.stringify(data)}; expected it to resume instance ${ids[k]}`
        )
      }
    }
    // Warm-up (untimed): the same HTTP route and subscription lookup with keys nothing waits for.
    const publishUnmatched = async (k: number) => {
      const { status, data } = await call("POST", "/messages", token, {
        messageName: MESSAGE_NAME,
        correlationKey: `warm-up-${k}`
      })
      if (status !== 202 || data.correlatedCount !== 0) {
        throw new Error(`warm-up message: ${status} ${JSON.stringify(data)}`)
      }
    }
    const sql = await runtime.runPromise(Effect.map(SqlClient.SqlClient, (client) => client))
    await runtime.runPromise(
      sql`CREATE TABLE IF NOT EXISTS bench_baseline (id uuid PRIMARY KEY, n integer NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL)`
    )
    const insert = (i: number) =>
      runtime.runPromise(
        sql.withTransaction(sql`INSERT INTO bench_baseline (id, n, payload, created_at)
          VALUES (${randomUUID()}, ${i}, ${JSON.stringify({ orderId: keyOf(i), paidAt: i })}::jsonb, ${
          new Date().toISOString()
        })`)
      ).then(() => undefined)

    process.stdout.write(`${label}: starting ${total} waiting instances (${CREATE_CONCURRENCY} in flight)... `)
    const setup = statsOf(await pool(total, CREATE_CONCURRENCY, start))
    console.log(`${setup.seconds.toFixed(1)} s (${setup.perSecond.toFixed(0)}/s)`)
    // Every commit that opens a message subscription wakes the outbox relay (a forked flush queued on one semaphore,
    // FIFO), so the starts leave a backlog of flushes behind them. Let it drain before timing: the N instances are
    // meant to be waiting quietly, as if started long before.
    const d0 = performance.now()
    await runtime.runPromise(Effect.flatMap(OutboxRelay, (relay) => relay.flush))
    const drainSeconds = (performance.now() - d0) / 1000
    console.log(`${label}: outbox relay backlog left by the starts drained in ${drainSeconds.toFixed(1)} s`)
    await pool(WARMUP, CONCURRENCY, publishUnmatched)
    await pool(WARMUP, CONCURRENCY, (i) => insert(-1 - i))

    // The baseline brackets the publishing phase, half before and half after, so a drift in the machine's load
    // (other processes, checkpoints) weighs on both figures alike.
    const firstHalf = Math.floor(N / 2)
    process.stdout.write(
      `${label}: baseline, ${firstHalf} single-row INSERT transactions (${CONCURRENCY} in flight)... `
    )
    const baselineBefore = await pool(firstHalf, CONCURRENCY, insert)
    console.log(`${baselineBefore.seconds.toFixed(1)} s`)

    process.stdout.write(`${label}: publishing ${N} messages (${CONCURRENCY} in flight)... `)
    const correlation = statsOf(await pool(N, CONCURRENCY, publish))
    console.log(`${correlation.seconds.toFixed(1)} s`)

    process.stdout.write(`${label}: baseline, ${N - firstHalf} more single-row INSERT transactions... `)
    const baselineAfter = await pool(N - firstHalf, CONCURRENCY, insert, firstHalf)
    console.log(`${baselineAfter.seconds.toFixed(1)} s`)
    const baseline = statsOf(baselineBefore, baselineAfter)

    const [counts] = await runtime.runPromise(sql<{ completed: unknown; waiting: unknown; inserted: unknown }>`SELECT
      (SELECT count(*) FROM process_instances WHERE deployment_id = ${deployment.id} AND state = 'COMPLETED') AS completed,
      (SELECT count(*) FROM event_subscriptions WHERE kind = 'MESSAGE' AND name = ${MESSAGE_NAME}) AS waiting,
      (SELECT count(*) FROM bench_baseline WHERE n >= 0) AS inserted`)
    if (Number(counts?.completed) !== total || Number(counts?.waiting) !== 0 || Number(counts?.inserted) !== N) {
      throw new Error(
        `after the run: ${counts?.completed} of ${total} instances COMPLETED, ${counts?.waiting} subscriptions left, ` +
          `${counts?.inserted} of ${N} baseline rows`
      )
    }
    const rssMb = Math.round(process.memoryUsage().rss / 1048576)
    await runtime.runPromise(sql`DROP TABLE bench_baseline`)
    return { label, setup, drainSeconds, correlation, baseline, rssMb }
  } finally {
    await runtime.dispose()
  }
}

/** Runs `body` against a fresh database on the PostgreSQL server, dropped afterwards; undefined if unreachable. */
const withFreshPostgres = async <A>(body: (url: string) => Promise<A>): Promise<A | { skipped: string }> => {
  const name = `flowcore_bench_corr_${Date.now()}_${process.pid}`
  const admin = (statement: string) =>
    Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
        Effect.provide(
          PgClient.layer({
            url: Redacted.make(PG_SERVER_URL),
            connectTimeout: "3 seconds",
            maxConnections: 1,
            applicationName: "flowcore-bench"
          })
        ),
        Effect.timeout("10 seconds")
      )
    )
  try {
    await admin(`CREATE DATABASE ${name}`)
  } catch (error) {
    return { skipped: `cannot create a database on ${new URL(PG_SERVER_URL).host}: ${String(error).split("\n")[0]}` }
  }
  try {
    const url = new URL(PG_SERVER_URL)
    url.pathname = `/${name}`
    return await body(url.toString())
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error) =>
      console.error(`could not drop ${name}:`, error)
    )
  }
}

const fmt = (value: number, digits = 0) => value.toFixed(digits)
const table = (results: ReadonlyArray<Result>) => {
  const header = [
    "database",
    "N",
    "correlations/s",
    "p50 ms",
    "p99 ms",
    "baseline tx/s",
    "p50 ms",
    "p99 ms",
    "ratio",
    "RSS MB"
  ]
  const rows = results.map((r) => [
    r.label,
    String(r.correlation.count),
    fmt(r.correlation.perSecond),
    fmt(r.correlation.p50, 1),
    fmt(r.correlation.p99, 1),
    fmt(r.baseline.perSecond),
    fmt(r.baseline.p50, 1),
    fmt(r.baseline.p99, 1),
    fmt(r.correlation.perSecond / r.baseline.perSecond, 3),
    String(r.rssMb)
  ])
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ")
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n")
}

const t0 = performance.now()
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${availableParallelism()} cores`
console.log(
  `bench:correlation N=${N}, ${CONCURRENCY} publishes/transactions in flight, ${CREATE_CONCURRENCY} instance starts in flight, ${WARMUP} warm-up publishes/transactions untimed; ${load()}`
)
if (N > MAX_RESIDENT) {
  console.log(
    `note: N > ${MAX_RESIDENT}: the cluster runner keeps at most ${MAX_RESIDENT} instance entities resident (effect's maxResidentEntities) ` +
      `and each stays resident for its 5-minute maxIdleTime, so starting instance ${
        MAX_RESIDENT + 1
      } is expected to fail with MailboxFull (HTTP 500)`
  )
}
const results: Array<Result> = []
let failed = false
if (DB === "both" || DB === "pglite") {
  const pgliteDir = process.env["PGLITE_DATA_DIR"] === "tmp"
    ? mkdtempSync(join(tmpdir(), "flowcore-bench-corr-"))
    : undefined
  try {
    results.push(
      await run(pgliteDir === undefined ? "PGlite (memory)" : "PGlite (file)", {
        DATA_DIR: pgliteDir ?? "memory://",
        DATABASE_URL: undefined
      })
    )
  } finally {
    if (pgliteDir !== undefined) rmSync(pgliteDir, { recursive: true, force: true })
  }
}
if (DB !== "pglite") {
  const outcome = await withFreshPostgres((url) => run("PostgreSQL", { DATABASE_URL: url }))
  if ("skipped" in outcome) {
    console.log(`PostgreSQL: skipped (${outcome.skipped})`)
    failed = DB !== "both"
  } else {
    results.push(outcome)
  }
}
if (results.length > 0) console.log(`\n${table(results)}\n`)
for (const r of results) {
  console.log(
    `${r.label}: ratio correlations/s ÷ baseline tx/s = ${fmt(r.correlation.perSecond)} ÷ ${
      fmt(r.baseline.perSecond)
    } = ` +
      `${fmt(r.correlation.perSecond / r.baseline.perSecond, 3)}  (setup: ${r.setup.count} instances started at ${
        fmt(r.setup.perSecond)
      }/s, relay backlog ${fmt(r.drainSeconds, 1)} s)`
  )
}
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s; ${load()}`)
process.exit(failed ? 1 : 0)

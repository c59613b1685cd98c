// What the service benches share: the service started as `npm start` starts it (`node src/main.ts`, its own process,
// an ephemeral port), a signed-in client of its API, its RSS, and percentiles.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { send } from "./LeanHttp.ts"

/** Requests answered 503 with Retry-After (the node at MAX_RESIDENT_ENTITIES) and sent again, in this process. */
export let busyRetries = 0

export const BENCH_PASSWORD = "bench-password-1"

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/**
 * Calls `listening` once the child's output matches `pattern`, and answers its output so far, for an error. Until
 * then the output is kept whole (and searched); from then on only its last few kilobytes. Searching all of it on every
 * chunk grew with the run and took CPU from the load this process makes (an access line per request): rates measured
 * before that fix (session 9) are low.
 */
export const whenListening = (child: ChildProcess, pattern: RegExp, listening: (match: RegExpExecArray) => void) => {
  let output = ""
  let found = false
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    if (found) {
      if (output.length > 16_384) output = output.slice(-8_192)
      return
    }
    const match = pattern.exec(output)
    if (match === null) return
    found = true
    listening(match)
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  return () => output
}

export const startService = (env: Record<string, string>, nodeArgs: ReadonlyArray<string> = []) =>
  new Promise<{ child: ChildProcess; base: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, "src/main.ts"], {
      env: {
        ...process.env,
        ...env,
        PORT: "0",
        HOST: "127.0.0.1",
        ADMIN_PASSWORD: BENCH_PASSWORD,
        LOG_LEVEL: env["LOG_LEVEL"] ?? "info"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let listening = false
    const output = whenListening(child, /listening on 127\.0\.0\.1:(\d+)/, (match) => {
      listening = true
      resolve({ child, base: `http://127.0.0.1:${match[1]}/api/v1` })
    })
    child.on("exit", (code, signal) => {
      const why = `service exited with ${code ?? signal}: ${output()}`
      // After it listened: a crash under load (the bench stops it with SIGTERM or SIGKILL).
      if (!listening) reject(new Error(why))
      else if (signal !== "SIGTERM" && signal !== "SIGKILL" && code !== 0) console.error(why.slice(-4_000))
    })
  })

export const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

/** CPU time (user + system) used so far, in ms, from a /proc stat file (clock ticks of 10 ms). */
const cpuMillisIn = (statFile: string): number => {
  const fields = readFileSync(statFile, "utf8").replace(/^.*\) /, "").split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** CPU time a process has used so far, in ms, all its threads. */
export const cpuMillisOf = (pid: number): number => cpuMillisIn(`/proc/${pid}/stat`)

/** CPU time a process's main thread has used so far, in ms (its GC helper threads and thread pool left out). */
export const mainThreadCpuMillisOf = (pid: number): number => cpuMillisIn(`/proc/${pid}/task/${pid}/stat`)

/** CPU time of every PostgreSQL server process on this machine so far, in ms (0 where /proc cannot tell). */
export const postgresCpuMillis = (): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue
      total += cpuMillisOf(Number(entry))
    } catch {
      // the process ended meanwhile
    }
  }
  return total
}

/** One gauge's value from the service's /metrics text. */
const gaugeOf = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0)
/** The service's /metrics text (Prometheus' format). */
export const metricsText = async (base: string, token: string) =>
  (await fetch(`${base.replace("/api/v1", "")}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()

/** The event loop's delay p99 and longest (ms) since the previous scrape: each call starts a new window. */
export const loopDelayOf = async (base: string, token: string) => {
  const text = await metricsText(base, token)
  const ms = (name: string) => Math.round(gaugeOf(text, name) * 10_000) / 10
  return { p99: ms("nodejs_eventloop_lag_p99_seconds"), max: ms("nodejs_eventloop_lag_max_seconds") }
}

/**
 * A histogram of the service's /metrics so far: cumulative counts by bucket bound in ms, of the series whose labels
 * include `having` (e.g. `route="/api/v1/messages"`; all of them summed when several match).
 */
export const histogramOf = async (
  base: string,
  token: string,
  name: string,
  having = ""
): Promise<ReadonlyArray<readonly [number, number]>> => {
  const counts = new Map<number, number>()
  for (
    const [, labels, count] of (await metricsText(base, token)).matchAll(
      new RegExp(`^${name}_bucket\\{([^}]*)\\} (\\S+)$`, "gm")
    )
  ) {
    if (!labels!.includes(having)) continue
    const bound = /le="([^"]+)"/.exec(labels!)![1]!
    const ms = bound === "+Inf" ? Infinity : Number(bound) * 1000
    counts.set(ms, (counts.get(ms) ?? 0) + Number(count))
  }
  return [...counts].sort(([a], [b]) => a - b)
}

/** The service's instance commits so far (flowcore_commit_duration_seconds), as histogramOf. */
export const commitTimesOf = (base: string, token: string) =>
  histogramOf(base, token, "flowcore_commit_duration_seconds")

/**
 * What happened between two readings of a histogram (histogramOf): how many, the smallest bucket bound (ms) that 99 %
 * took no longer than, and how many took longer than 50 ms. For the commits: tells a request's latency tail that is
 * the commit's (its transaction, fsync included, from the command's side) from one that is not; for a route: the
 * service's own time, against what the client saw.
 */
export const commitsBetween = (
  before: ReadonlyArray<readonly [number, number]>,
  after: ReadonlyArray<readonly [number, number]>
) => {
  const within = after.map(([bound, count], i) => [bound, count - (before[i]?.[1] ?? 0)] as const)
  const count = within.at(-1)?.[1] ?? 0
  const p99 = within.find(([, n]) => n >= 0.99 * count)?.[0] ?? Infinity
  const over50 = count - (within.find(([bound]) => bound === 50)?.[1] ?? count)
  return { count, p99, over50 }
}

/** The service's V8 heap (used / reserved) and memory outside it, in MB, from its /metrics. */
export const heapOf = async (base: string, token: string) => {
  const text = await metricsText(base, token)
  const mb = (name: string) => Math.round(gaugeOf(text, name) / 1048576)
  return {
    used: mb("nodejs_heap_size_used_bytes"),
    total: mb("nodejs_heap_size_total_bytes"),
    external: mb("nodejs_external_memory_bytes")
  }
}

/**
 * One API call with a bearer token; answers the success envelope's data or throws with the failure. A node at its
 * limit of resident entities answers 503 with Retry-After: as a client or load balancer would, this waits and sends
 * again (counted: busyRetries).
 */
export const apiCall = async (
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json"
) => {
  const again = () =>
    send(
      `${base}${path}`,
      method,
      { authorization: `Bearer ${token}`, "content-type": contentType },
      body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    )
  let response = await again()
  for (
    let attempt = 0;
    response.status === 503 && response.headers["retry-after"] !== undefined && attempt < 30;
    attempt++
  ) {
    busyRetries++
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers["retry-after"]) * 1000))
    response = await again()
  }
  const json = JSON.parse(response.text) as { success: boolean; data: any; message?: string }
  if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${json.message}`)
  return json.data
}

/** Signs in as the bootstrap admin; `call` is apiCall with that token. */
export const signedIn = async (base: string) => {
  const login = await (await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: BENCH_PASSWORD })
  })).json() as { data: { token: string } }
  const token = login.data.token
  const call = (method: string, path: string, body?: unknown, contentType = "application/json") =>
    apiCall(base, token, method, path, body, contentType)
  return { token, call }
}

/**
 * Runs `measure` against a database of its own, dropped afterwards: a fresh PGlite data dir (DB=pglite) or a fresh
 * database on the PostgreSQL server of BENCH_DATABASE_URL or DATABASE_URL (default: this machine's). `measure` gets
 * the service's env.
 */
export const onFreshDatabase = async (
  db: string,
  name: string,
  measure: (env: Record<string, string>) => Promise<void>
) => {
  if (db === "pglite") {
    const dataDir = mkdtempSync(join(tmpdir(), `flowcore-${name}-`))
    try {
      await measure({ DATA_DIR: dataDir })
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
    return
  }
  const server = process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"] ??
    "postgres://postgres@127.0.0.1:5432/postgres"
  const database = `flowcore_${name}_${process.pid}`
  const admin = new URL(server)
  admin.pathname = "/postgres"
  execFileSync("psql", [admin.toString(), "-qc", `CREATE DATABASE ${database}`])
  const url = new URL(server)
  url.pathname = `/${database}`
  try {
    await measure({ DATABASE_URL: url.toString() })
  } finally {
    execFileSync("psql", [admin.toString(), "-qc", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
  }
}

/** start → a message catch event (`messageName`, correlation key `= key`) → end: an instance waits for its message. */
export const messageWaitModel = (id: string, messageName: string) => ({
  id,
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "wait", type: "intermediateCatchEvent", properties: { messageName, correlationKey: "= key" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "wait" }, { id: "f2", source: "wait", target: "end" }]
})

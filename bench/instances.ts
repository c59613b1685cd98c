// npm run bench:instances — N instances of start -> service task -> end, driven over HTTP: starters post
// /process-instances while worker loops activate and complete jobs. Prints completed instances/s, p50/p99 start
// latency and RSS, on the embedded PGlite and (when BENCH_DATABASE_URL or DATABASE_URL is set) on PostgreSQL.
//   N=2000 STARTERS=16 WORKERS=4 BATCH=32 npm run bench:instances
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { readFileSync } from "node:fs"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeApp } from "../src/App.ts"
import { configFromEnv } from "../src/config.ts"
import { apiCall, BENCH_PASSWORD, percentile } from "./ServiceUnderTest.ts"

const N = Number(process.env["N"] ?? 2000)
const STARTERS = Number(process.env["STARTERS"] ?? 16)
const WORKERS = Number(process.env["WORKERS"] ?? 4)
const BATCH = Number(process.env["BATCH"] ?? 32)
const xml = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")

/** An API call against the app at `base` (its root): apiCall of ServiceUnderTest.ts. */
const call = (base: string, token: string, method: string, path: string, body?: unknown, contentType?: string) =>
  apiCall(`${base}/api/v1`, token, method, path, body, contentType)

const run = async (label: string, env: Record<string, string | undefined>) => {
  const config = {
    ...configFromEnv({
      ...process.env,
      ...env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ADMIN_PASSWORD: BENCH_PASSWORD
    })
  }
  const runtime = ManagedRuntime.make(makeApp(config) as Layer.Layer<any, unknown, never>)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (!("port" in address)) throw new Error("not TCP")
  const base = `http://127.0.0.1:${address.port}`
  const login = await (await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: BENCH_PASSWORD })
  })).json() as { data: { token: string } }
  const token = login.data.token
  const deployment = await call(base, token, "POST", "/deployments", xml, "application/xml")

  const latencies: Array<number> = []
  let started = 0
  let completed = 0
  const t0 = performance.now()
  const starters = Array.from({ length: STARTERS }, async () => {
    while (started < N) {
      started++
      const t = performance.now()
      await call(base, token, "POST", "/process-instances", { deploymentId: deployment.id, variables: { n: started } })
      latencies.push(performance.now() - t)
    }
  })
  const workers = Array.from({ length: WORKERS }, async (_, w) => {
    while (completed < N) {
      const { jobs } = await call(base, token, "POST", "/jobs/activation", {
        type: "charge-card",
        worker: `w${w}`,
        maxJobsToActivate: BATCH,
        timeout: 60_000
      })
      if (jobs.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        continue
      }
      await Promise.all(jobs.map(async (job: { id: string }) => {
        await call(base, token, "POST", `/jobs/${job.id}/complete`, { variables: { done: true } })
        completed++
      }))
    }
  })
  await Promise.all([...starters, ...workers])
  const seconds = (performance.now() - t0) / 1000
  const sorted = [...latencies].sort((a, b) => a - b)
  const rss = Math.round(process.memoryUsage().rss / 1048576)
  console.log(
    `${label}: ${N} instances completed in ${seconds.toFixed(2)} s = ${(N / seconds).toFixed(0)} instances/s; ` +
      `start latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${
        percentile(sorted, 99).toFixed(1)
      } ms; RSS ${rss} MB ` +
      `(starters ${STARTERS}, workers ${WORKERS}, batch ${BATCH})`
  )
  await runtime.dispose()
}

const dataDir = mkdtempSync(join(tmpdir(), "flowcore-bench-"))
try {
  await run("PGlite", { DATA_DIR: dataDir, DATABASE_URL: undefined })
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
const pgUrl = process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"]
if (pgUrl !== undefined) await run("PostgreSQL", { DATABASE_URL: pgUrl })
else console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL to a fresh database to measure it)")
process.exit(0)

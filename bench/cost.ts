// npm run bench:cost — where the service's CPU goes, request kind by request kind. The service runs as `npm start`
// runs it (its own process); this process sends COUNT requests of each kind, CONCURRENCY at a time, and prints the
// service's CPU milliseconds per request (and PostgreSQL's, on PostgreSQL). CPU per request hardly depends on how busy
// the machine is, so this is the figure to compare before and after a change to the hot path.
//   COUNT=2000 CONCURRENCY=16 DB=postgres|pglite npm run bench:cost
//   CPU_PROF=<dir> also writes the service's CPU profile there (node --cpu-prof)
import { readFileSync } from "node:fs"
import { machineSpeedMillis } from "./MachineSpeed.ts"
import {
  cpuMillisOf,
  messageWaitModel,
  metricsText,
  onFreshDatabase,
  postgresCpuMillis,
  signedIn,
  startService
} from "./ServiceUnderTest.ts"

const COUNT = Number(process.env["COUNT"] ?? 2000)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 16)
const DB = (process.env["DB"] ?? "postgres").toLowerCase()
const serviceTask = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")
const straight = {
  id: "cost-straight",
  nodes: [{ id: "start", type: "startEvent" }, { id: "end", type: "endEvent" }],
  flows: [{ id: "f1", source: "start", target: "end" }]
}

let metrics: (() => Promise<string>) | undefined
/** Instance commands committed so far, and in how many transactions (the group commit's histogram). */
const commitBatches = async () => {
  const text = metrics === undefined ? "" : await metrics()
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? 0)
  return { sum: value("flowcore_commit_batch_size_sum"), count: value("flowcore_commit_batch_size_count") }
}

const measure = async (
  pid: number,
  label: string,
  request: (i: number) => Promise<unknown>,
  count = COUNT
) => {
  const batches0 = await commitBatches()
  const service0 = cpuMillisOf(pid)
  const database0 = postgresCpuMillis()
  const t0 = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await request(next++)
  }))
  const seconds = (performance.now() - t0) / 1000
  const service = (cpuMillisOf(pid) - service0) / count
  const database = DB === "postgres" ? ((postgresCpuMillis() - database0) / count).toFixed(2) : "-"
  const batches1 = await commitBatches()
  const commands = batches1.sum - batches0.sum
  const perBatch = commands === 0 ? "-" : (commands / (batches1.count - batches0.count)).toFixed(1)
  console.log(`| ${label} | ${service.toFixed(2)} | ${database} | ${Math.round(count / seconds)} | ${perBatch} |`)
}

const run = async (env: Record<string, string>) => {
  const service = await startService(
    env,
    process.env["CPU_PROF"] ? ["--cpu-prof", `--cpu-prof-dir=${process.env["CPU_PROF"]}`] : []
  )
  const pid = service.child.pid!
  try {
    const { call, token } = await signedIn(service.base)
    metrics = () => metricsText(service.base, token)
    const oneTask = await call("POST", "/deployments", serviceTask, "application/xml")
    const noTask = await call("POST", "/deployments", straight)
    const some = await call("POST", "/process-instances", { deploymentId: noTask.id })
    console.log(
      `\nservice CPU per request, ${COUNT} requests of each kind, ${CONCURRENCY} in flight (${DB}); machine speed ` +
        `${machineSpeedMillis()} ms (bench/MachineSpeed.ts, lower is faster)`
    )
    console.log("| request | service ms | PostgreSQL ms | requests/s | commands per commit |")
    console.log("|---|---|---|---|---|")
    await measure(pid, "GET /health", () => fetch(`${service.base}/health`).then((r) => r.arrayBuffer()))
    await measure(pid, "GET /process-instances/{id}", () => call("GET", `/process-instances/${some.id}`))
    await measure(pid, "start: start → end", () => call("POST", "/process-instances", { deploymentId: noTask.id }))
    await measure(pid, "start: start → job", () => call("POST", "/process-instances", { deploymentId: oneTask.id }))
    const jobs: Array<string> = []
    await measure(pid, "activate ≤ 32 jobs (few samples)", async () => {
      const batch = await call("POST", "/jobs/activation", {
        type: "charge-card",
        worker: "cost",
        maxJobsToActivate: 32,
        timeout: 600_000,
        requestTimeout: 0
      })
      for (const job of batch.jobs as Array<{ id: string }>) jobs.push(job.id)
    }, Math.ceil(COUNT / 32)).then(() => console.log(`(activated ${jobs.length}; the row above is per request)`))
    await measure(pid, "complete job → end", (i) => call("POST", `/jobs/${jobs[i]}/complete`, {}), jobs.length)
    // Correlations: COUNT instances waiting at a message catch event (started unmeasured), then one publish each.
    const waiting = await call("POST", "/deployments", messageWaitModel("cost-message", "cost-paid"))
    let started = 0
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (started < COUNT) {
        const i = started++
        await call("POST", "/process-instances", { deploymentId: waiting.id, variables: { key: `k-${i}` } })
      }
    }))
    await measure(pid, "publish → correlate → end", async (i) => {
      const result = await call("POST", "/messages", { messageName: "cost-paid", correlationKey: `k-${i}` })
      if (result.correlatedCount !== 1) throw new Error(`message k-${i} correlated ${result.correlatedCount}`)
    })
  } finally {
    // With CPU_PROF the profile is written as the process exits: a graceful stop.
    if (process.env["CPU_PROF"] === undefined) service.child.kill("SIGKILL")
    else await new Promise((resolve) => service.child.once("exit", resolve).kill("SIGTERM"))
  }
}

await onFreshDatabase(
  DB,
  "cost",
  (env) =>
    run({ ...env, ...(process.env["RUNNER_MODE"] === undefined ? {} : { RUNNER_MODE: process.env["RUNNER_MODE"] }) })
)

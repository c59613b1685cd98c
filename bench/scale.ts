// npm run bench:scale — does anything grow with the number of instances waiting? The service as `npm start` runs it
// (PostgreSQL by default: a fresh database; DB=pglite for the embedded one), then:
//   1. FEW (1,000) instances wait at a message catch event; measured: correlations/s over PROBE publishes, and
//      one-task instances started and completed per second over PROBE instances (activation included);
//   2. WAITING (default 100,000) instances wait; the same two rates measured again; the service's RSS after each.
// Before each measurement it pauses past ENTITY_IDLE_SECONDS, so both sizes correlate to instances no longer in memory.
// Printed: both rates at both sizes and their ratio (the target: within 10 %), RSS, and how long the waiting took.
// On PostgreSQL the database is VACUUM ANALYZEd after the burst of waiting instances (VACUUM_FIRST=0: not).
//   WAITING=100000 FEW=1000 PROBE=500 CONCURRENCY=32 DB=postgres|pglite npm run bench:scale
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { busyRetries, heapOf, onFreshDatabase, rssOf, signedIn, startService } from "./ServiceUnderTest.ts"

const WAITING = Number(process.env["WAITING"] ?? 100_000)
const FEW = Number(process.env["FEW"] ?? 1_000)
const PROBE = Number(process.env["PROBE"] ?? 500)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 32)
const DB = (process.env["DB"] ?? "postgres").toLowerCase()
/** Longer than the service's ENTITY_IDLE_SECONDS (default 3): the waiting instances have left memory. */
const IDLE_WAIT_MS = Number(process.env["IDLE_WAIT_MS"] ?? 12_000)
const serviceTask = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")

type Call = Awaited<ReturnType<typeof signedIn>>["call"]

const inParallel = async (count: number, work: (i: number) => Promise<void>) => {
  let next = 0
  const t0 = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++)
  }))
  return (performance.now() - t0) / 1000
}

/** Starts instances waiting for `bench-scale` messages with keys from..to-1. */
const wait = (call: Call, deploymentId: string, from: number, to: number) =>
  inParallel(
    to - from,
    (i) => call("POST", "/process-instances", { deploymentId, variables: { key: `k-${from + i}` } })
  )

/** Correlations/s: PROBE publishes to instances that wait (keys from..). */
const correlations = async (call: Call, from: number) =>
  Math.round(
    PROBE / await inParallel(PROBE, async (i) => {
      const result = await call("POST", "/messages", { messageName: "bench-scale", correlationKey: `k-${from + i}` })
      if (result.correlatedCount !== 1) throw new Error(`k-${from + i} correlated ${result.correlatedCount}`)
    })
  )

/** One-task instances/s: PROBE started, their jobs activated and completed (activation walks the job tables). */
const oneTask = async (call: Call, deploymentId: string) => {
  const t0 = performance.now()
  await inParallel(PROBE, () => call("POST", "/process-instances", { deploymentId }))
  let done = 0
  while (done < PROBE) {
    const { jobs } = await call("POST", "/jobs/activation", {
      type: "charge-card",
      worker: "scale",
      maxJobsToActivate: 32,
      timeout: 60_000
    })
    await Promise.all(jobs.map((job: { id: string }) => call("POST", `/jobs/${job.id}/complete`, {})))
    done += jobs.length
  }
  return Math.round(PROBE / ((performance.now() - t0) / 1000))
}

const measure = async (env: Record<string, string>) => {
  const service = await startService(env)
  try {
    const { call, token } = await signedIn(service.base)
    const waiting = await call("POST", "/deployments", {
      id: "bench-scale",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "wait",
          type: "intermediateCatchEvent",
          properties: { messageName: "bench-scale", correlationKey: "= key" }
        },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "wait" }, { id: "f2", source: "wait", target: "end" }]
    })
    const task = await call("POST", "/deployments", serviceTask, "application/xml")
    await wait(call, waiting.id, 0, FEW + PROBE)
    // Both sizes correlate to instances that wait longer than the entities stay in memory (ENTITY_IDLE_SECONDS):
    // each correlation then loads its instance, at either size, as it would after hours of waiting.
    await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS))
    const few = { correlations: await correlations(call, 0), instances: await oneTask(call, task.id) }
    const rssFew = rssOf(service.child.pid!)
    const heapFew = await heapOf(service.base, token)
    const seconds = await wait(call, waiting.id, FEW + PROBE, WAITING + 2 * PROBE)
    // A database that took 100,000 instances in three minutes is measured as it is after its autovacuum caught up
    // (VACUUM ANALYZE: fresh statistics, no vacuum competing for the 2 cores), as hours of waiting would leave it.
    // VACUUM_FIRST=0 measures it straight after the burst instead.
    if (env["DATABASE_URL"] !== undefined && process.env["VACUUM_FIRST"] !== "0") {
      execFileSync("psql", [env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"])
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS))
    const many = { correlations: await correlations(call, WAITING), instances: await oneTask(call, task.id) }
    const rssMany = rssOf(service.child.pid!)
    const heapMany = await heapOf(service.base, token)
    console.log(
      `\n${WAITING} waiting instances started in ${Math.round(seconds)} s (${Math.round(WAITING / seconds)}/s); ` +
        `${busyRetries} requests answered 503 (MAX_RESIDENT_ENTITIES) and were sent again`
    )
    console.log("| waiting | correlations/s | one-task instances/s | RSS MB | heap used / reserved MB | external MB |")
    console.log("|---|---|---|---|---|---|")
    const heap = (h: Awaited<ReturnType<typeof heapOf>>) => `${h.used} / ${h.total} | ${h.external}`
    console.log(`| ${FEW} | ${few.correlations} | ${few.instances} | ${rssFew} | ${heap(heapFew)} |`)
    console.log(`| ${WAITING} | ${many.correlations} | ${many.instances} | ${rssMany} | ${heap(heapMany)} |`)
    console.log(
      `ratios at ${WAITING} ÷ at ${FEW}: correlations ${(many.correlations / few.correlations).toFixed(2)}, ` +
        `instances ${(many.instances / few.instances).toFixed(2)} (target: ≥ 0.90)`
    )
    // Issue 11: RSS under 600 MB on PostgreSQL and 1.5 GB embedded, both rates within 10 % of those at FEW.
    const rssLimit = env["DATABASE_URL"] === undefined ? 1_536 : 600
    const met = rssMany < rssLimit && many.correlations >= 0.9 * few.correlations &&
      many.instances >= 0.9 * few.instances
    console.log(
      `issue 11's target at ${WAITING} waiting (RSS < ${rssLimit} MB, both ratios ≥ 0.90): ${met ? "met" : "NOT met"}`
    )
  } finally {
    service.child.kill("SIGKILL")
  }
}

await onFreshDatabase(DB, "scale", measure)

// GET /metrics: Prometheus' text format, for METRICS_TOKEN or an ADMIN; the counters move with the work done.
import { describe, expect, it } from "vitest"
import { anonymous, givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

const oneTask = {
  id: "metered",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "metered-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

const scrape = async (token: string | undefined) => {
  const app = await testApp()
  const response = await fetch(
    `${app.baseUrl}/metrics`,
    token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }
  )
  return { status: response.status, text: await response.text() }
}

/** The value of a series (its name and the attributes it must carry), summed over the lines that match. */
const valueOf = (text: string, name: string, attributes: Record<string, string> = {}) =>
  text.split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(attributes).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0)

describe("metrics", () => {
  it("are served to METRICS_TOKEN or an ADMIN, and nobody else", async () => {
    expect((await scrape(undefined)).status).toBe(401)
    expect((await scrape("not-a-token")).status).toBe(401)
    const tenant = await givenTenant()
    expect((await scrape((await tenant.owner()).token)).status).toBe(403)
    const admin = await scrape((await tenant.admin()).token)
    expect(admin.status).toBe(200)
    expect((await scrape("test-metrics-token")).status).toBe(200)
    ;(await (await anonymous()).get("/health")).ok()
  })

  it("count requests by route template and the engine's work", async () => {
    const owner = await (await givenTenant()).owner()
    const before = (await scrape("test-metrics-token")).text
    const deployment = await owner.deploy(oneTask)
    const instance = await owner.start(deployment.id)
    const [job] = await owner.activateJobs("metered-work")
    await owner.completeJob(job.id)
    ;(await owner.get(`/process-instances/${instance.id}`)).ok()
    const after = (await scrape("test-metrics-token")).text
    const delta = (name: string, attributes: Record<string, string> = {}) =>
      valueOf(after, name, attributes) - valueOf(before, name, attributes)
    expect(delta("flowcore_engine_events_total", { event: "InstanceStarted" })).toBeGreaterThanOrEqual(1)
    expect(delta("flowcore_engine_events_total", { event: "InstanceCompleted" })).toBeGreaterThanOrEqual(1)
    expect(delta("flowcore_engine_events_total", { event: "JobCompleted" })).toBeGreaterThanOrEqual(1)
    expect(delta("flowcore_jobs_activated_total")).toBeGreaterThanOrEqual(1)
    expect(
      delta("flowcore_http_requests_total", { route: "/api/v1/process-instances/{id}", method: "GET", status: "200" })
    ).toBeGreaterThanOrEqual(1)
    expect(after).not.toContain(instance.id) // ids never become labels
    expect(after).toContain("flowcore_commit_duration_seconds")
  })

  it("report the process's memory and event loop delay as they are at the scrape", async () => {
    await scrape("test-metrics-token") // the delay's window starts at a scrape
    // The app runs in this process: synchronous work here delays its event loop by as much. Node records a delay when
    // its sampling timer runs again (the first run after a scrape only starts the window), and timers run before the
    // second immediate after a piece of work: two busy turns, each followed by two immediates.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
    for (let turn = 0; turn < 2; turn++) {
      const until = Date.now() + 60
      while (Date.now() < until) { /* busy */ }
      await nextTurn()
      await nextTurn()
    }
    const text = (await scrape("test-metrics-token")).text
    const rss = valueOf(text, "process_resident_memory_bytes")
    const heapUsed = valueOf(text, "nodejs_heap_size_used_bytes")
    expect(heapUsed).toBeGreaterThan(1024 * 1024)
    expect(valueOf(text, "nodejs_heap_size_total_bytes")).toBeGreaterThanOrEqual(heapUsed)
    expect(rss).toBeGreaterThan(heapUsed)
    expect(valueOf(text, "nodejs_external_memory_bytes")).toBeGreaterThan(0)
    for (const name of ["p50", "p99", "max"]) {
      expect(text).toMatch(new RegExp(`^nodejs_eventloop_lag_${name}_seconds \\d`, "m"))
    }
    expect(valueOf(text, "nodejs_eventloop_lag_max_seconds")).toBeGreaterThanOrEqual(0.03)
    expect(valueOf(text, "nodejs_eventloop_lag_max_seconds")).toBeGreaterThanOrEqual(
      valueOf(text, "nodejs_eventloop_lag_p50_seconds")
    )
  })
})

// Two nodes (`node src/main.ts`) on one fresh PostgreSQL database: a start sent to one node makes an instance whose
// shard that node owns (its id is drawn until it is), so the start runs there and nothing travels to the other node.
// Ids derived for a retried idempotent start stay as derived (the failover test covers those).
// Runs only against PostgreSQL (DATABASE_URL; the test makes and drops a database of its own beside it).
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { type ChildService, startService, stopService } from "../support/ChildService.ts"
import { eventually } from "../support/Eventually.ts"

const databaseUrl = process.env["DATABASE_URL"]
if (databaseUrl === undefined) {
  console.warn("test/cluster skipped: it needs DATABASE_URL (a fresh PostgreSQL database); .ci/run runs it")
}

const PASSWORD = "cluster-password-1"
const SHARDS = 30

// start → service task → end: an instance waits at its job.
const model = readFileSync(new URL("../fixtures/service-task.bpmn", import.meta.url), "utf8")

describe.runIf(databaseUrl !== undefined)("two nodes", () => {
  const admin = new URL(databaseUrl ?? "postgres://localhost/postgres")
  admin.pathname = "/postgres"
  const database = `flowcore_local_starts_${process.pid}`
  const url = new URL(databaseUrl ?? "postgres://localhost/postgres")
  url.pathname = `/${database}`
  const psql = (statement: string) => execFileSync("psql", [admin.toString(), "-qc", statement])
  const nodes: Array<ChildService> = []
  afterAll(async () => {
    await Promise.all(nodes.map((node) => stopService(node, "SIGKILL")))
    psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  })

  it("a start runs on the node that received it: the other node holds nothing of it", async () => {
    psql(`CREATE DATABASE ${database}`)
    const env = {
      DATABASE_URL: url.toString(),
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: PASSWORD,
      RUNNER_MODE: "socket",
      CLUSTER_SHARDS: String(SHARDS),
      // The copies stay in memory for the whole test, so each node's count is what it received.
      ENTITY_IDLE_SECONDS: "600"
    }
    nodes.push(await startService(env))
    nodes.push(await startService(env))
    const [first, second] = nodes as [ChildService, ChildService]
    const call = async (node: ChildService, method: string, path: string, token?: string, body?: unknown) => {
      const response = await fetch(`${node.baseUrl}${path}`, {
        method,
        headers: {
          "content-type": typeof body === "string" ? "application/xml" : "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
        },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      })
      return { status: response.status, text: await response.text() }
    }
    const login = await call(first, "POST", "/api/v1/auth/login", undefined, { username: "admin", password: PASSWORD })
    const token = JSON.parse(login.text).data.token as string
    const shardsOf = async (node: ChildService) => {
      const metrics = (await call(node, "GET", "/metrics", token)).text
      return Number(/^effect_cluster_shards(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1] ?? 0)
    }
    // Both nodes hold their shards: every shard is owned, and by both of them together.
    await eventually(async () => {
      const [a, b] = [await shardsOf(first), await shardsOf(second)]
      expect(a).toBeGreaterThan(0)
      expect(b).toBeGreaterThan(0)
      expect(a + b).toBe(SHARDS)
    }, { timeoutMs: 30_000, intervalMs: 100 })
    const activeEntities = async (node: ChildService) =>
      JSON.parse((await call(node, "GET", "/api/v1/health")).text).data.cluster.activeEntities as number
    const beforeSecond = await activeEntities(second)

    const deployment = JSON.parse((await call(first, "POST", "/api/v1/deployments", token, model)).text).data
    const ids: Array<string> = []
    for (let i = 0; i < 20; i++) {
      const started = await call(first, "POST", "/api/v1/process-instances", token, { deploymentId: deployment.id })
      expect(started.status, started.text).toBe(201)
      ids.push(JSON.parse(started.text).data.id)
    }
    // With ids drawn at random, about half of them would have belonged to the second node's shards.
    expect(await activeEntities(second)).toBe(beforeSecond)
    expect(await activeEntities(first)).toBeGreaterThanOrEqual(20)
    // Any node reads them, and a command through the other node reaches them.
    const read = await call(second, "GET", `/api/v1/process-instances/${ids[0]}`, token)
    expect(JSON.parse(read.text).data).toMatchObject({ id: ids[0], state: "ACTIVE" })
    const suspended = await call(second, "POST", `/api/v1/process-instances/${ids[1]}/suspend`, token)
    expect(suspended.status, suspended.text).toBe(200)
  }, 90_000)
})

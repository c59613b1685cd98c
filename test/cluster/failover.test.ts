// Three nodes (`node src/main.ts`, as `npm start` runs it) on one fresh PostgreSQL database, driven round-robin like a
// load balancer would: starts, job completions, messages and timers of many instances, with one node SIGKILLed in
// the middle of the load and started again, and later another one stopped gracefully (SIGTERM) under load. The client does what a client of a load balancer does: a request that
// met the dead node (connection refused or reset) is sent again to the next node with the same Idempotency-Key or
// messageId. Asserted: no request failed for good, every instance completed, nothing was lost or applied twice.
// Printed: how long after the kill the instances of the dead node's shards answered again (failover), and how long
// the stopped node took to exit.
// Runs only against PostgreSQL (DATABASE_URL, a fresh database: .ci/run gives it one).
import { describe, expect, it } from "vitest"
import { type ChildService, startService, stopService } from "../support/ChildService.ts"
import { eventually } from "../support/Eventually.ts"

const databaseUrl = process.env["DATABASE_URL"]
if (databaseUrl === undefined) {
  console.warn("test/cluster skipped: it needs DATABASE_URL (a fresh PostgreSQL database); .ci/run runs it")
}

const PASSWORD = "cluster-password-1"
const env = {
  DATABASE_URL: databaseUrl ?? "",
  ADMIN_USERNAME: "admin",
  ADMIN_PASSWORD: PASSWORD,
  RUNNER_MODE: "socket"
}

const model = {
  id: "cluster-order",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "charge", type: "serviceTask", properties: { taskType: "cluster-charge" } },
    {
      id: "paid",
      type: "intermediateCatchEvent",
      properties: { messageName: "cluster-paid", correlationKey: "= orderId" }
    },
    { id: "cooling", type: "intermediateCatchEvent", properties: { timeDuration: "PT1S" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "start", target: "charge" },
    { id: "f2", source: "charge", target: "paid" },
    { id: "f3", source: "paid", target: "cooling" },
    { id: "f4", source: "cooling", target: "end" }
  ]
}

interface Stats {
  sent: number
  retried: number
  failed: number
}

/** A client of the three nodes: round-robin, and a request that met a dead node goes to the next one. */
const makeClient = (nodes: Array<ChildService | undefined>, stats: Stats) => {
  let next = 0
  let token = ""
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    stats.sent++
    for (let attempt = 0; attempt < 30; attempt++) {
      const node = nodes[next++ % nodes.length]
      if (node === undefined) continue
      try {
        const response = await fetch(`${node.baseUrl}/api/v1${path}`, {
          method,
          headers: {
            "content-type": "application/json",
            ...(token === "" ? {} : { authorization: `Bearer ${token}` }),
            ...headers
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(15_000)
        })
        if (response.status === 503) throw new Error("draining")
        return { status: response.status, body: await response.json() as any }
      } catch {
        stats.retried++
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    stats.failed++
    throw new Error(`${method} ${path}: no node answered`)
  }
  return { call, setToken: (value: string) => void (token = value) }
}

describe.runIf(databaseUrl !== undefined)("three nodes behind a round-robin client", () => {
  it(
    "lose nothing and apply nothing twice when one is SIGKILLed and another stopped with SIGTERM under load",
    async () => {
      const nodes: Array<ChildService | undefined> = await Promise.all([
        startService(env),
        startService(env),
        startService(env)
      ])
      const stats: Stats = { sent: 0, retried: 0, failed: 0 }
      const client = makeClient(nodes, stats)
      try {
        const login = await client.call("POST", "/auth/login", { username: "admin", password: PASSWORD })
        client.setToken(login.body.data.token)
        const deployment = (await client.call("POST", "/deployments", model)).body.data
        const TOTAL = 90
        const started: Array<string> = []
        let killedAt = 0

        const startOne = async (i: number) => {
          const reply = await client.call("POST", "/process-instances", {
            deploymentId: deployment.id,
            variables: { orderId: `o-${i}` }
          }, {
            "idempotency-key": `start-${i}`
          })
          expect(reply.status, JSON.stringify(reply.body)).toBe(201)
          started.push(reply.body.data.id)
        }
        const workOnce = async () => {
          const activated = await client.call("POST", "/jobs/activation", {
            type: "cluster-charge",
            worker: "w",
            maxJobsToActivate: 16,
            timeout: 4000
          })
          for (const job of activated.body.data?.jobs ?? []) {
            const done = await client.call("POST", `/jobs/${job.id}/complete`, { variables: { charged: true } }, {
              "idempotency-key": `complete-${job.id}`
            })
            // 404/409: the lock expired after a node died and another worker completed it — not a lost request
            if (done.status !== 200 && done.status !== 404 && done.status !== 409) {
              throw new Error(JSON.stringify(done.body))
            }
            const orderId = job.variables.orderId
            const published = await client.call("POST", "/messages", {
              messageName: "cluster-paid",
              correlationKey: orderId,
              messageId: `paid-${orderId}`,
              timeToLive: 60_000
            })
            if (published.status !== 202 && published.status !== 409) throw new Error(JSON.stringify(published.body))
          }
          return (activated.body.data?.jobs ?? []).length
        }

        // Starts in waves; after a third of them one node dies, and comes back after two thirds.
        for (let wave = 0; wave < TOTAL / 10; wave++) {
          const starts = Promise.all(Array.from({ length: 10 }, (_, k) => startOne(wave * 10 + k)))
          const work = workOnce()
          if (wave === 3) {
            // killed while this wave's requests are in flight
            killedAt = performance.now()
            await stopService(nodes[1]!, "SIGKILL")
            nodes[1] = undefined
            // Failover: starts spread over every shard, the dead node's too, sent at once beside the wave in flight;
            // how long until they all answered. (Measured after the wave, it would count the wave's own sequential
            // completions and publishes too.)
            const probe = Promise.all(Array.from({ length: 20 }, (_, k) => startOne(TOTAL + k))).then(() =>
              performance.now() - killedAt
            )
            const [failover] = await Promise.all([probe, starts, work])
            console.log(`failover: starts on every shard answered ${Math.round(failover)} ms after the SIGKILL`)
          }
          if (wave === 7) {
            // Another node is stopped gracefully while this wave is in flight: it answers 503 at once (the client sends
            // those requests to another node), finishes what it was doing, hands its shards over and exits.
            const stoppingAt = performance.now()
            const draining = nodes[2]!
            const code = await stopService(draining, "SIGTERM")
            nodes[2] = undefined
            console.log(
              `graceful stop: the node exited with ${code} ${
                Math.round(performance.now() - stoppingAt)
              } ms after SIGTERM`
            )
            expect(code).toBe(0)
          }
          await Promise.all([starts, work])
          if (wave === 6) nodes[1] = await startService(env)
        }

        await eventually(async () => {
          await workOnce()
          const page =
            (await client.call("GET", `/process-instances?deploymentId=${deployment.id}&state=COMPLETED&size=1`)).body
              .data
          expect(page.totalItems).toBe(TOTAL + 20)
        }, { timeoutMs: 90_000, intervalMs: 200 })

        const all = (await client.call("GET", `/process-instances?deploymentId=${deployment.id}&size=1000`)).body.data
        expect(all.totalItems).toBe(TOTAL + 20) // no duplicate from a retried start
        expect(new Set(started).size).toBe(TOTAL + 20)
        for (const id of started.slice(0, 40)) {
          const history = (await client.call("GET", `/process-instances/${id}/history?size=100`)).body.data
            .items as Array<{ type: string }>
          const count = (type: string) => history.filter((e) => e.type === type).length
          expect([count("JobCompleted"), count("MessageCorrelated"), count("TimerFired")], id).toEqual([1, 1, 1])
        }
        console.log(
          `cluster load: ${stats.sent} requests, ${stats.retried} sent again to another node, ${stats.failed} failed`
        )
        expect(stats.failed).toBe(0)
      } finally {
        await Promise.all(nodes.map((node) => (node === undefined ? undefined : stopService(node, "SIGKILL"))))
      }
    },
    240_000
  )
})

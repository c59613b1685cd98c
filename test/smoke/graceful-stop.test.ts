// Graceful stop of the real process: on SIGTERM the health check answers 503 at once, new work is refused with 503
// (retry elsewhere), a request in flight still gets its answer, and the process exits 0 — also when the signal goes
// to the whole process group of `npm start`, as a terminal's Ctrl+C or a container runtime sends it.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type ChildService, startService } from "../support/ChildService.ts"
import { send } from "../support/Client.ts"
import { eventually } from "../support/Eventually.ts"

const dataDir = mkdtempSync(join(tmpdir(), "flowcore-stop-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const env = { DATA_DIR: dataDir, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "root-password-1", SHUTDOWN_GRACE_MS: "30000" }

// The service says how it stopped as its last line (npm, when signalled with its group, is gone before it).
const stopped = (service: ChildService) =>
  eventually(async () => {
    const match = /stopped \(exit (\d+)\)/.exec(service.output())
    expect(match).not.toBeNull()
    return Number(match![1])
  }, { timeoutMs: 30_000 })

const drainScenario = async (service: ChildService, signal: () => void) => {
  const login = (await send(service.baseUrl, "POST", "/api/v1/auth/login", {
    body: { username: "root", password: "root-password-1" }
  })).ok()
  // A long poll for jobs nobody creates: in flight until its request timeout.
  const inFlight = send(service.baseUrl, "POST", "/api/v1/jobs/activation", {
    token: login.token,
    body: { type: "nobody-creates-these", worker: "w", maxJobsToActivate: 1, timeout: 1000, requestTimeout: 1500 }
  })
  // the node counts it (the health check itself is the other one)
  await eventually(async () =>
    expect((await send(service.baseUrl, "GET", "/api/v1/health")).ok().requestsInFlight).toBe(2)
  )
  signal()
  await eventually(async () => {
    const health = await send(service.baseUrl, "GET", "/api/v1/health")
    health.fails(503, "INTERNAL_ERROR")
  })
  const refused = await send(service.baseUrl, "GET", "/api/v1/auth/users", { token: login.token })
  refused.fails(503, "INTERNAL_ERROR")
  expect(refused.headers.get("retry-after")).toBe("1")
  // the long poll answers normally: nothing was cut off
  expect((await inFlight).ok().jobs).toEqual([])
  expect(await stopped(service)).toBe(0)
}

describe("graceful stop", () => {
  it("SIGTERM to the service: health 503 at once, in-flight requests finish, exit 0", async () => {
    const service = await startService(env)
    await drainScenario(service, () => service.child.kill("SIGTERM"))
  }, 60_000)

  it("SIGTERM to the process group of npm start: the same", async () => {
    const child = spawn("npm", ["start", "--silent"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    const service = await new Promise<ChildService>((resolve, reject) => {
      let output = ""
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output)
        if (match) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output })
      }
      child.stdout!.on("data", onData)
      child.stderr!.on("data", onData)
      child.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)))
    })
    await drainScenario(service, () => process.kill(-child.pid!, "SIGTERM"))
  }, 60_000)
})

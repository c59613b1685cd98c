// Persistence smoke test: the real entry point (`node src/main.ts`, as `npm start` runs it) as a child process, killed
// with SIGKILL and restarted on the same data: everything committed before the kill is still there. Runs on the
// embedded PGlite (a temp DATA_DIR) or, when DATABASE_URL is set, on PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startService as start, stopService } from "../support/ChildService.ts"
import { send } from "../support/Client.ts"
import { eventually } from "../support/Eventually.ts"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const oneTask = {
  id: "restart-smoke",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "restart-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

const dataDir = mkdtempSync(join(tmpdir(), "flowcore-smoke-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe("restart on the same data", () => {
  it("keeps users, groups and tokens across a SIGKILL, and starts cleanly again after SIGTERM", async () => {
    // A fixed port, as a node has in production (its runner port follows it, so a restart keeps its runner address).
    const env = {
      DATA_DIR: dataDir,
      ADMIN_USERNAME: "root",
      ADMIN_PASSWORD: "root-password-1",
      PORT: String(await freePort())
    }
    const first = await start(env)
    const login = (await send(first.baseUrl, "POST", "/api/v1/auth/login", {
      body: { username: "root", password: "root-password-1" }
    })).ok()
    const token: string = login.token
    const username = `survivor-${Date.now()}`
    const user = (await send(first.baseUrl, "POST", "/api/v1/auth/users", {
      token,
      body: { username, password: "password-123", roles: ["TASK_USER"] }
    })).ok(201)
    const group =
      (await send(first.baseUrl, "POST", "/api/v1/auth/groups", { token, body: { name: `g-${Date.now()}` } })).ok(201)
    ;(await send(first.baseUrl, "POST", `/api/v1/auth/groups/${group.id}/members`, {
      token,
      body: { userId: user.id }
    })).ok(201)
    const deployment = (await send(first.baseUrl, "POST", "/api/v1/deployments", { token, body: oneTask })).ok(201)
    const instance =
      (await send(first.baseUrl, "POST", "/api/v1/process-instances", { token, body: { deploymentId: deployment.id } }))
        .ok(201)
    await stopService(first, "SIGKILL")

    // Restart time, as an operator sees it: from the new process to the first command an instance answers.
    const restartedAt = performance.now()
    const second = await start(env)
    const listeningMs = performance.now() - restartedAt
    await eventually(async () =>
      (await send(second.baseUrl, "POST", `/api/v1/process-instances/${instance.id}/suspend`, { token })).ok()
    )
    console.log(
      `restart after SIGKILL (${
        process.env["DATABASE_URL"] === undefined ? "PGlite" : "PostgreSQL"
      }): listening after ` +
        `${Math.round(listeningMs)} ms, first instance command answered after ${
          Math.round(performance.now() - restartedAt)
        } ms`
    )
    // the first start's token still verifies: the generated signing secret was kept
    const members = (await send(second.baseUrl, "GET", `/api/v1/auth/groups/${group.id}/members`, { token })).ok()
    expect(members.items.map((m: { userId: string }) => m.userId)).toEqual([user.id])
    ;(await send(second.baseUrl, "POST", "/api/v1/auth/login", { body: { username, password: "password-123" } })).ok()
    // bootstrap ran once: no second admin, no second default tenant
    const users = (await send(second.baseUrl, "GET", "/api/v1/auth/users?size=1000", { token })).ok()
    expect(users.items.filter((u: { username: string }) => u.username === "root")).toHaveLength(1)
    expect(second.output()).not.toMatch(/First start/)
    expect(await stopService(second, "SIGTERM")).toBe(0)

    const third = await start(env)
    ;(await send(third.baseUrl, "GET", "/api/v1/health")).ok()
    await stopService(third, "SIGKILL")
  }, 120_000)
})

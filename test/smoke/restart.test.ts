// Persistence smoke test: the real entry point (`node src/main.ts`, as `npm start` runs it) as a child process, killed
// with SIGKILL and restarted on the same data: everything committed before the kill is still there. Runs on the
// embedded PGlite (a temp DATA_DIR) or, when DATABASE_URL is set, on PostgreSQL.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"

interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly output: () => string
}

const start = (env: Record<string, string>): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`service exited with ${code} before listening:\n${output}`)))
  })

const killed = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code))
    child.kill(signal)
  })

const dataDir = mkdtempSync(join(tmpdir(), "flowcore-smoke-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe("restart on the same data", () => {
  it("keeps users, groups and tokens across a SIGKILL, and starts cleanly again after SIGTERM", async () => {
    const env = { DATA_DIR: dataDir, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "root-password-1" }
    const first = await start(env)
    const login = (await send(first.baseUrl, "POST", "/api/v1/auth/login", { body: { username: "root", password: "root-password-1" } })).ok()
    const token: string = login.token
    const username = `survivor-${Date.now()}`
    const user = (await send(first.baseUrl, "POST", "/api/v1/auth/users", { token, body: { username, password: "password-123", roles: ["TASK_USER"] } })).ok(201)
    const group = (await send(first.baseUrl, "POST", "/api/v1/auth/groups", { token, body: { name: `g-${Date.now()}` } })).ok(201)
    ;(await send(first.baseUrl, "POST", `/api/v1/auth/groups/${group.id}/members`, { token, body: { userId: user.id } })).ok(201)
    await killed(first.child, "SIGKILL")

    const second = await start(env)
    // the first start's token still verifies: the generated signing secret was kept
    const members = (await send(second.baseUrl, "GET", `/api/v1/auth/groups/${group.id}/members`, { token })).ok()
    expect(members.items.map((m: { userId: string }) => m.userId)).toEqual([user.id])
    ;(await send(second.baseUrl, "POST", "/api/v1/auth/login", { body: { username, password: "password-123" } })).ok()
    // bootstrap ran once: no second admin, no second default tenant
    const users = (await send(second.baseUrl, "GET", "/api/v1/auth/users?size=1000", { token })).ok()
    expect(users.items.filter((u: { username: string }) => u.username === "root")).toHaveLength(1)
    expect(second.output()).not.toMatch(/First start/)
    expect(await killed(second.child, "SIGTERM")).toBe(0)

    const third = await start(env)
    ;(await send(third.baseUrl, "GET", "/api/v1/health")).ok()
    await killed(third.child, "SIGKILL")
  }, 120_000)
})

// npm run bench:cluster — completed one-task instances/s with 1, 2 and 3 nodes (`node src/main.ts` processes, as
// `npm start` runs them) on one PostgreSQL database, driven round-robin over HTTP from this process: STARTERS clients
// start instances while WORKERS loops activate and complete their jobs, for SECONDS per run. Each run gets a fresh
// database (BENCH_DATABASE_URL or DATABASE_URL names the server; default postgres://postgres@127.0.0.1:5432).
//   SECONDS=10 STARTERS=16 WORKERS=4 npm run bench:cluster
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { oneTaskLoad } from "./OneTaskLoad.ts"
import { apiCall, whenListening } from "./ServiceUnderTest.ts"

const SECONDS = Number(process.env["SECONDS"] ?? 10)
const STARTERS = Number(process.env["STARTERS"] ?? 16)
const WORKERS = Number(process.env["WORKERS"] ?? 4)
const server = new URL(
  process.env["BENCH_DATABASE_URL"] ?? process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
)
const xml = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")
const PASSWORD = "bench-password-1"

const admin = (sql: string) => {
  const url = new URL(server.toString())
  url.pathname = "/postgres"
  execFileSync("psql", [url.toString(), "-qc", sql])
}

const startNode = (databaseUrl: string, port: number) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: "127.0.0.1",
        ADMIN_PASSWORD: PASSWORD,
        LOG_LEVEL: "info"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const output = whenListening(child, /listening on/, () => resolve(child))
    child.on("exit", (code) => reject(new Error(`node exited with ${code}: ${output()}`)))
  })

const run = async (nodeCount: number) => {
  const database = `flowcore_bench_cluster_${process.pid}_${nodeCount}`
  admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  admin(`CREATE DATABASE ${database}`)
  const url = new URL(server.toString())
  url.pathname = `/${database}`
  const ports = Array.from({ length: nodeCount }, (_, i) => 9100 + i)
  const nodes = await Promise.all(ports.map((port) => startNode(url.toString(), port)))
  let next = 0
  const base = () => `http://127.0.0.1:${ports[next++ % ports.length]}/api/v1`
  const call = (token: string, method: string, path: string, body?: unknown, contentType = "application/json") =>
    apiCall(base(), token, method, path, body, contentType)
  try {
    const login = await (await fetch(`${base()}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: PASSWORD })
    })).json() as { data: { token: string } }
    const token = login.data.token
    const deployment = await call(token, "POST", "/deployments", xml, "application/xml")
    const { completed, started } = await oneTaskLoad(
      (method, path, body) => call(token, method, path, body),
      deployment.id,
      { seconds: SECONDS, starters: STARTERS, workers: WORKERS }
    )
    return { nodes: nodeCount, started: Math.round(started / SECONDS), completed: Math.round(completed / SECONDS) }
  } finally {
    for (const node of nodes) node.kill("SIGKILL")
    admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  }
}

const rows = []
for (const count of [1, 2, 3]) rows.push(await run(count))
console.log(
  `\ncluster, ${STARTERS} starters + ${WORKERS} workers, ${SECONDS} s per run, PostgreSQL, ${
    (await import("node:os")).cpus().length
  } cores`
)
console.log("| nodes | instances started/s | instances completed/s |\n|---|---|---|")
for (const row of rows) console.log(`| ${row.nodes} | ${row.started} | ${row.completed} |`)

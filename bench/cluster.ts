// npm run bench:cluster — completed one-task instances/s with 1, 2 and 3 nodes (`node src/main.ts` processes, as
// `npm start` runs them) on one PostgreSQL database, driven round-robin over HTTP from this process: STARTERS clients
// start instances while WORKERS loops activate and complete their jobs, for SECONDS per run. Each run gets a fresh
// database (BENCH_DATABASE_URL or DATABASE_URL names the server; default postgres://postgres@127.0.0.1:5432). Then
// what one cross-node hop costs (ClusterHop.ts): HOP_COUNT job completions per round, HOP_ROUNDS rounds (0: skipped).
//   SECONDS=10 STARTERS=16 WORKERS=4 NODE_COUNTS=1,2,3 HOP_COUNT=3000 HOP_ROUNDS=4 npm run bench:cluster
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import { hopRounds } from "./ClusterHop.ts"
import { oneTaskLoad } from "./OneTaskLoad.ts"
import { apiCall, cpuMillisOf, postgresCpuMillis, whenListening } from "./ServiceUnderTest.ts"

const SECONDS = Number(process.env["SECONDS"] ?? 10)
const STARTERS = Number(process.env["STARTERS"] ?? 16)
const WORKERS = Number(process.env["WORKERS"] ?? 4)
const HOP_COUNT = Number(process.env["HOP_COUNT"] ?? 3000)
const HOP_ROUNDS = Number(process.env["HOP_ROUNDS"] ?? 4)
/** Which cluster sizes the first table runs ("": none, only the hop's cost). */
const NODE_COUNTS = (process.env["NODE_COUNTS"] ?? "1,2,3").split(",").filter((n) => n !== "").map(Number)
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

/** `nodeCount` nodes on a fresh database, signed in, the one-task process deployed; all gone afterwards. */
const withNodes = async <A>(
  nodeCount: number,
  measure: (cluster: {
    readonly nodes: ReadonlyArray<ChildProcess>
    readonly bases: ReadonlyArray<string>
    readonly token: string
    readonly deploymentId: string
  }) => Promise<A>
): Promise<A> => {
  const database = `flowcore_bench_cluster_${process.pid}_${nodeCount}`
  admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  admin(`CREATE DATABASE ${database}`)
  const url = new URL(server.toString())
  url.pathname = `/${database}`
  const bases = Array.from({ length: nodeCount }, (_, i) => `http://127.0.0.1:${9100 + i}/api/v1`)
  const nodes = await Promise.all(bases.map((_, i) => startNode(url.toString(), 9100 + i)))
  try {
    const login = await (await fetch(`${bases[0]}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: PASSWORD })
    })).json() as { data: { token: string } }
    const token = login.data.token
    const deployment = await apiCall(bases[0]!, token, "POST", "/deployments", xml, "application/xml")
    return await measure({ nodes, bases, token, deploymentId: deployment.id })
  } finally {
    for (const node of nodes) node.kill("SIGKILL")
    admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  }
}

const cores = cpus().length
const ownCpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const run = (nodeCount: number) =>
  withNodes(nodeCount, async ({ bases, deploymentId, nodes, token }) => {
    let next = 0
    const call = (method: string, path: string, body?: unknown) =>
      apiCall(bases[next++ % bases.length]!, token, method, path, body)
    const nodesCpu = () => nodes.reduce((sum, node) => sum + cpuMillisOf(node.pid!), 0)
    const cpu0 = { nodes: nodesCpu(), database: postgresCpuMillis(), load: ownCpuMillis() }
    const { completed, started } = await oneTaskLoad(call, deploymentId, {
      seconds: SECONDS,
      starters: STARTERS,
      workers: WORKERS
    })
    const perInstance = (ms: number) => (ms / Math.max(1, completed)).toFixed(2)
    const cpu = {
      nodes: nodesCpu() - cpu0.nodes,
      database: postgresCpuMillis() - cpu0.database,
      load: ownCpuMillis() - cpu0.load
    }
    return {
      nodes: nodeCount,
      started: Math.round(started / SECONDS),
      completed: Math.round(completed / SECONDS),
      cpuPerInstance: `${perInstance(cpu.nodes)} / ${perInstance(cpu.database)} / ${perInstance(cpu.load)}`,
      busy: Math.round((100 * (cpu.nodes + cpu.database + cpu.load)) / (SECONDS * 1000 * cores))
    }
  })

const rows = []
for (const count of NODE_COUNTS) rows.push(await run(count))
console.log(`\ncluster, ${STARTERS} starters + ${WORKERS} workers, ${SECONDS} s per run, PostgreSQL, ${cores} cores`)
console.log(
  "| nodes | instances started/s | instances completed/s | CPU ms per completed instance: nodes / PostgreSQL / load " +
    "| machine busy % |\n|---|---|---|---|---|"
)
for (const row of rows) {
  console.log(`| ${row.nodes} | ${row.started} | ${row.completed} | ${row.cpuPerInstance} | ${row.busy} |`)
}

if (HOP_ROUNDS > 0) {
  const hops = await withNodes(
    2,
    ({ bases, deploymentId, nodes, token }) =>
      hopRounds([nodes[0]!, nodes[1]!], [bases[0]!, bases[1]!], token, deploymentId, {
        count: HOP_COUNT,
        rounds: HOP_ROUNDS
      })
  )
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const total = (via: string) =>
    median(hops.filter((h) => h.via === via).map((h) => h.ownerMillis + h.otherMillis + h.databaseMillis))
  console.log(
    `\na cross-node hop: ${HOP_COUNT} job completions per round, 16 in flight, 2 nodes; the instances live on node A\n` +
      "| completed through | CPU ms per completion: node A / node B / PostgreSQL | completions/s |\n|---|---|---|"
  )
  for (const hop of hops) {
    console.log(
      `| ${hop.via === "owner" ? "A (the owner)" : "B (a hop to A)"} | ${hop.ownerMillis.toFixed(2)} / ${
        hop.otherMillis.toFixed(2)
      } / ${hop.databaseMillis.toFixed(2)} | ${hop.perSecond} |`
    )
  }
  console.log(
    `(median CPU per completion, all three together: ${total("owner").toFixed(2)} ms on the owner, ${
      total("other node").toFixed(2)
    } ms through the other node — a hop costs ${(total("other node") - total("owner")).toFixed(2)} ms)`
  )
}

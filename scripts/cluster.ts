// `npm run cluster`: three flowcore nodes on one PostgreSQL database behind HAProxy, on this machine, for a person to
// try the cluster: http://127.0.0.1:8080 is the load balancer, the nodes listen on 8081-8083 (runners 18081-18083).
// DATABASE_URL names the database (default postgres://postgres@127.0.0.1:5432/flowcore_cluster, created if missing).
// HAProxy comes from Debian's packages and is installed with apt-get when missing. Ctrl+C stops everything
// gracefully. Try: kill -9 one node's pid (printed) and watch the others take over.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const LB_PORT = Number(process.env["LB_PORT"] ?? 8080)
const NODE_PORTS = [8081, 8082, 8083]
const databaseUrl = process.env["DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/flowcore_cluster"

const haproxy = (): string => {
  for (const candidate of ["/usr/sbin/haproxy", "/usr/bin/haproxy"]) if (existsSync(candidate)) return candidate
  console.log("HAProxy is missing: installing it from Debian's packages (apt-get)")
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" })
  execFileSync("apt-get", ["install", "-y", "-qq", "haproxy"], { stdio: "inherit" })
  return "/usr/sbin/haproxy"
}

const ensureDatabase = () => {
  const url = new URL(databaseUrl)
  const name = url.pathname.slice(1)
  const admin = new URL(databaseUrl)
  admin.pathname = "/postgres"
  try {
    execFileSync("psql", [
          admin.toString(),
          "-qtAc",
          `SELECT 1 FROM pg_database WHERE datname = '${name.replace(/'/g, "")}'`
        ], { encoding: "utf8" }).trim() === "1" ||
      execFileSync("psql", [admin.toString(), "-qc", `CREATE DATABASE "${name.replace(/"/g, "")}"`])
  } catch (error) {
    console.error(`cannot reach or create the database ${name}: ${String(error)}`)
    process.exit(2)
  }
}

const children: Array<ChildProcess> = []
const stopAll = (signal: NodeJS.Signals) => {
  for (const child of children) if (child.exitCode === null) child.kill(signal)
}
process.on("SIGINT", () => stopAll("SIGTERM"))
process.on("SIGTERM", () => stopAll("SIGTERM"))

ensureDatabase()
const haproxyBinary = haproxy()
for (const port of NODE_PORTS) {
  const child = spawn(process.execPath, ["src/main.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", RUNNER_HOST: "127.0.0.1" },
    stdio: ["ignore", "inherit", "inherit"]
  })
  console.log(`node on 127.0.0.1:${port}: pid ${child.pid}`)
  children.push(child)
}
const config = readFileSync(new URL("../deploy/haproxy.cfg", import.meta.url), "utf8") +
  NODE_PORTS.map((port, i) => `  server node${i + 1} 127.0.0.1:${port} check\n`).join("")
const configFile = join(mkdtempSync(join(tmpdir(), "flowcore-haproxy-")), "haproxy.cfg")
writeFileSync(configFile, config)
const balancer = spawn(haproxyBinary, ["-W", "-db", "-f", configFile], {
  env: { ...process.env, LB_PORT: String(LB_PORT) },
  stdio: "inherit"
})
children.push(balancer)
console.log(`load balancer on http://127.0.0.1:${LB_PORT} (HAProxy pid ${balancer.pid}); Ctrl+C stops everything`)
await Promise.all(children.map((child) => new Promise((resolve) => child.once("exit", resolve))))

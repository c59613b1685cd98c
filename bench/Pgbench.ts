// pgbench's single-row inserts on the bench's own database, in the same run: the figure an independent check of
// issue 11 compares with ("with pgbench in the same run"). The issue states its target against the Node SQL client's
// baseline and puts that at about 0.35 × pgbench (the C client is 2.5–3 × faster), so `npm run bench` prints both.
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface PgbenchRates {
  /** tps at the 16 clients, and at the bench's own concurrency. */
  readonly byClients: ReadonlyArray<{ readonly clients: number; readonly tps: number }>
}

const hasPgbench = (): boolean => {
  try {
    execFileSync("pgbench", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/**
 * Single-row inserts, each its own transaction (pgbench's insert script, as the bench's Node baseline runs them), for
 * `seconds` at each client count after one unmeasured second; undefined where pgbench is not installed or fails.
 */
export const pgbenchInserts = (
  databaseUrl: string,
  clientCounts: ReadonlyArray<number>,
  seconds: number
): PgbenchRates | undefined => {
  if (!hasPgbench()) return undefined
  try {
    return measured(databaseUrl, clientCounts, seconds)
  } catch (error) {
    // the bench goes on without this line
    console.warn(`pgbench did not run: ${String(error).slice(0, 300)}`)
    return undefined
  }
}

const measured = (databaseUrl: string, clientCounts: ReadonlyArray<number>, seconds: number): PgbenchRates => {
  execFileSync("psql", [
    databaseUrl,
    "-qc",
    "CREATE TABLE IF NOT EXISTS pgbench_baseline (id bigserial PRIMARY KEY, n integer NOT NULL, at timestamptz NOT NULL)"
  ])
  const dir = mkdtempSync(join(tmpdir(), "flowcore-pgbench-"))
  try {
    const script = join(dir, "insert.sql")
    writeFileSync(script, "INSERT INTO pgbench_baseline (n, at) VALUES (1, now());\n")
    const run = (clients: number, forSeconds: number) => {
      const out = execFileSync("pgbench", [
        "-n",
        "-c",
        String(clients),
        "-j",
        "2",
        "-T",
        String(forSeconds),
        "-f",
        script,
        databaseUrl
      ]).toString()
      return Math.round(Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0))
    }
    run(Math.max(...clientCounts), 1)
    return { byClients: clientCounts.map((clients) => ({ clients, tps: run(clients, seconds) })) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    execFileSync("psql", [databaseUrl, "-qc", "DROP TABLE IF EXISTS pgbench_baseline"])
  }
}

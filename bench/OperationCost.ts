// What one operation of a bench phase costs: CPU of the service, of PostgreSQL and of the load generator (they share
// the machine's cores, so CPU per operation is the figure that survives a busy machine), and PostgreSQL's own
// counters of transactions and rows.
import { execFileSync } from "node:child_process"
import { cpuMillisOf, postgresCpuMillis } from "./ServiceUnderTest.ts"

export interface CpuMark {
  readonly service: number
  readonly database: number
  readonly load: number
}

/** This process's CPU so far (the load generator), in ms. */
const loadCpuMillis = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** The CPU spent so far by the service (`pid`), PostgreSQL (all its processes) and this process, in ms. */
export const cpuMark = (pid: number): CpuMark => ({
  service: cpuMillisOf(pid),
  database: postgresCpuMillis(),
  load: loadCpuMillis()
})

/** Milliseconds of CPU per operation since `from`. */
export const cpuPer = (from: CpuMark, pid: number, operations: number): CpuMark => {
  const now = cpuMark(pid)
  const per = (spent: number) => spent / Math.max(1, operations)
  return {
    service: per(now.service - from.service),
    database: per(now.database - from.database),
    load: per(now.load - from.load)
  }
}

export interface DatabaseStats {
  readonly commits: number
  readonly inserted: number
  readonly updated: number
  readonly returned: number
}

/** A PostgreSQL database's counters (they lag up to a second, so they are read after a pause). */
export const databaseStats = async (url: string): Promise<DatabaseStats> => {
  await new Promise((resolve) => setTimeout(resolve, 1100))
  const out = execFileSync("psql", [
    url,
    "-Atc",
    "SELECT xact_commit, tup_inserted, tup_updated, tup_returned FROM pg_stat_database WHERE datname = current_database()"
  ]).toString().trim().split("|").map(Number)
  return { commits: out[0]!, inserted: out[1]!, updated: out[2]!, returned: out[3]! }
}

/** Prints the rows each completed instance cost between two readings; with TABLE_STATS=1 also the busiest tables. */
export const printDatabaseCost = (url: string, label: string, from: DatabaseStats, to: DatabaseStats, ops: number) => {
  const per = (key: keyof DatabaseStats) => ((to[key] - from[key]) / Math.max(1, ops)).toFixed(1)
  console.log(
    `${label}: per completed instance ${per("commits")} transactions, ${per("inserted")} rows inserted, ` +
      `${per("updated")} updated, ${per("returned")} read (pg_stat_database)`
  )
  if (process.env["TABLE_STATS"] !== "1") return
  console.log(
    execFileSync("psql", [
      url,
      "-c",
      `SELECT relname, n_tup_ins, n_tup_upd, n_tup_del, seq_scan,
          seq_tup_read, idx_scan FROM pg_stat_user_tables ORDER BY n_tup_ins + seq_tup_read DESC LIMIT 12`
    ]).toString()
  )
}

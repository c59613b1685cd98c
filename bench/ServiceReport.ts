// What `npm run bench` prints: one row per database, as tables and the lines that explain their tails.
import type { DiskTimes } from "./DiskProbe.ts"
import type { publishAtRate, pushAtRate, pushFromOwnProcess, streamPushAtRate } from "./HalfRate.ts"
import { MAX_CONNECTIONS } from "./LeanHttp.ts"
import type { CpuMark } from "./OperationCost.ts"
import type { PgbenchRates } from "./Pgbench.ts"
import type { commitsBetween, loopDelayOf } from "./ServiceUnderTest.ts"
import type { SqlBaselineRates } from "./SqlBaseline.ts"

type Commits = ReturnType<typeof commitsBetween>
type LoopDelay = Awaited<ReturnType<typeof loopDelayOf>>
type Push = Awaited<ReturnType<typeof pushAtRate>>

/** One database's figures (bench/service.ts measures them). */
export interface ServiceRow {
  readonly label: string
  readonly instancesPerSecond: number
  readonly startP50: number
  readonly startP99: number
  readonly correlationsPerSecond: number
  readonly publishP50: number
  readonly publishP99: number
  readonly pushP50: number
  readonly pushP99: number
  readonly publishHalf: Awaited<ReturnType<typeof publishAtRate>>
  readonly publishRate: number
  readonly startRate: number
  readonly publishLoop: LoopDelay
  readonly pushLoop: LoopDelay
  readonly publishCommits: Commits
  readonly publishServer: Commits
  readonly pushCommits: Commits
  readonly diskHalf: ReturnType<DiskTimes["between"]>
  readonly pushHalf: Push
  readonly pushHalfMany: Push
  readonly streamHalf: Awaited<ReturnType<typeof streamPushAtRate>>
  readonly pushOwn: Awaited<ReturnType<typeof pushFromOwnProcess>>
  readonly streamOwn: Awaited<ReturnType<typeof pushFromOwnProcess>>
  readonly baseline: SqlBaselineRates
  readonly pgbench: PgbenchRates | undefined
  readonly rss: number
  readonly instanceCpu: CpuMark
  readonly correlationCpu: CpuMark
}

/** The load's shape, as the headings name it. */
export interface ServiceLoad {
  readonly starters: number
  readonly workers: number
  readonly manyWorkers: number
  readonly seconds: number
  readonly warmUpSeconds: number
  readonly correlations: number
  readonly concurrency: number
  readonly halfSeconds: number
}

const printThroughput = (rows: ReadonlyArray<ServiceRow>, load: ServiceLoad) => {
  console.log(
    `\nservice in its own process (node src/main.ts), load over HTTP from another: ${load.starters} starters + ` +
      `${load.workers} workers for ${load.seconds} s after ${load.warmUpSeconds} s unmeasured; ` +
      `${load.correlations} correlations with ${load.concurrency} in flight`
  )
  console.log(
    "| database | instances/s | start p50/p99 ms | correlations/s | publish p50/p99 ms | baseline tx/s | correlations ÷ baseline | job push p50/p99 ms | RSS MB |"
  )
  console.log("|---|---|---|---|---|---|---|---|---|")
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.instancesPerSecond} | ${r.startP50}/${r.startP99} | ${r.correlationsPerSecond} | ` +
        `${r.publishP50}/${r.publishP99} | ${r.baseline.autocommit} | ` +
        `${(r.correlationsPerSecond / r.baseline.autocommit).toFixed(3)} | ${r.pushP50}/${r.pushP99} | ${r.rss} |`
    )
  }
  for (const r of rows) {
    if (r.pgbench === undefined) continue
    const [issue, ours] = r.pgbench.byClients
    console.log(
      `(${r.label}: pgbench single-row inserts on the same database, ${issue!.tps} tps at ${issue!.clients} clients ` +
        `and ${ours!.tps} at ${ours!.clients}; correlations ÷ pgbench at ${issue!.clients} clients ` +
        `${(r.correlationsPerSecond / issue!.tps).toFixed(3)} — issue 11 puts its target of 1.0 × the Node baseline ` +
        `at about 0.35 × pgbench)`
    )
  }
  for (const r of rows) {
    console.log(
      `(${r.label}: the same insert between BEGIN and COMMIT, ${r.baseline.explicit} tx/s; correlations ÷ that ` +
        `${(r.correlationsPerSecond / r.baseline.explicit).toFixed(3)}, the ratio earlier rounds reported)`
    )
  }
}

const printHalfRate = (rows: ReadonlyArray<ServiceRow>, load: ServiceLoad) => {
  console.log(
    `\nat half of those rates, open-loop for ${load.halfSeconds} s (issue 11: publish p99 ≤ 50 ms, job push p99 < 20 ms)`
  )
  console.log(
    `| database | publishes/s | publish p50/p99 ms | starts/s | job push p50/p99 ms: ${load.workers} long-polling ` +
      `workers | ${load.manyWorkers} long-polling workers | ${load.workers} job streams | service event loop delay ` +
      `p99/max ms: publish, push |`
  )
  console.log("|---|---|---|---|---|---|---|---|")
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${Math.floor(r.publishRate)} | ${r.publishHalf.p50}/${r.publishHalf.p99} | ` +
        `${Math.floor(r.startRate)} | ${r.pushHalf.p50}/${r.pushHalf.p99} | ` +
        `${r.pushHalfMany.p50}/${r.pushHalfMany.p99} | ${r.streamHalf.p50}/${r.streamHalf.p99} | ` +
        `${r.publishLoop.p99}/${r.publishLoop.max}, ${r.pushLoop.p99}/${r.pushLoop.max} |`
    )
  }
  // How much of the tails is the commit's: the instance commits' own times in the same phases (the service's histogram).
  for (const r of rows) {
    const commits = (c: Commits) =>
      `${c.count} commits, 99 % within ${c.p99} ms (a bucket bound), ${c.over50} over 50 ms`
    console.log(
      `(${r.label}, at half rate — the publishes' time in the service: 99 % within ${r.publishServer.p99} ms, ` +
        `${r.publishServer.over50} of ${r.publishServer.count} over 50 ms; instance commits in the publish phase: ` +
        `${commits(r.publishCommits)}; ` +
        `long-poll push phases: ${commits(r.pushCommits)}; the disk meanwhile, an 8 KiB fdatasync every 20 ms: ` +
        `p99 ${r.diskHalf.p99} ms, max ${r.diskHalf.max} ms, ${r.diskHalf.over20} of ${r.diskHalf.count} over 20 ms; ` +
        `connections the client opened during the phases, beyond the ${MAX_CONNECTIONS} opened before each: ` +
        `${r.publishHalf.connectionsOpened}, ${r.pushHalf.connectionsOpened}, ${r.pushHalfMany.connectionsOpened}, ` +
        `${r.streamHalf.connectionsOpened})`
    )
  }
  // The long polls' figure split by how each job reached its worker (HalfRate.ts pushAtRate).
  for (const r of rows) {
    for (const [workers, push] of [[load.workers, r.pushHalf], [load.manyWorkers, r.pushHalfMany]] as const) {
      console.log(
        `(${r.label}, ${workers} long-polling workers: ${push.handed.count} jobs handed to a poll in their creating ` +
          `commit, p50/p99 ${push.handed.p50}/${push.handed.p99} ms; ${push.found.count} found by a look that began ` +
          `after them, ${push.found.p50}/${push.found.p99} ms)`
      )
    }
  }
  // The push phases again with the workers in a process of their own (HalfRate.ts pushFromOwnProcess).
  for (const r of rows) {
    console.log(
      `(${r.label}, job push with the ${load.workers} workers in a process of their own, the starts from this one: ` +
        `long polls p50/p99 ${r.pushOwn.p50}/${r.pushOwn.p99} ms (${r.pushOwn.count} jobs), streams ` +
        `${r.streamOwn.p50}/${r.streamOwn.p99} ms (${r.streamOwn.count} jobs))`
    )
  }
}

// CPU per operation does not depend on how busy the machine is (the rates above do): compare these across changes.
const printCpu = (rows: ReadonlyArray<ServiceRow>) => {
  console.log(
    "\nCPU ms per operation (service process / PostgreSQL processes / this load generator; PGlite runs inside the service)"
  )
  console.log("| database | per instance | per correlation |")
  console.log("|---|---|---|")
  const ms = (cpu: CpuMark) => `${cpu.service.toFixed(2)} / ${cpu.database.toFixed(2)} / ${cpu.load.toFixed(2)}`
  for (const r of rows) console.log(`| ${r.label} | ${ms(r.instanceCpu)} | ${ms(r.correlationCpu)} |`)
}

/** Issue 11's targets, each with this run's figure and whether it met it (the 100,000-waiting ones: bench:scale). */
const printTargets = (rows: ReadonlyArray<ServiceRow>, load: ServiceLoad) => {
  const verdict = (met: boolean) => (met ? "met" : "NOT met")
  console.log("\nissue 11's targets in this run")
  console.log("| database | target | this run | |\n|---|---|---|---|")
  for (const r of rows) {
    const line = (target: string, figure: string, met: boolean) =>
      console.log(`| ${r.label} | ${target} | ${figure} | ${verdict(met)} |`)
    const floor = r.label === "PGlite" ? 500 : 1_000
    line(`≥ ${floor} completed one-task instances/s`, `${r.instancesPerSecond}`, r.instancesPerSecond >= floor)
    const ratio = r.correlationsPerSecond / r.baseline.autocommit
    line("correlations/s ≥ 1.0 × the Node baseline", ratio.toFixed(3), ratio >= 1)
    line("publish p99 ≤ 50 ms at half rate", `${r.publishHalf.p99} ms`, r.publishHalf.p99 <= 50)
    const pushes = [
      [`${load.workers} long-polling workers`, r.pushHalf.p99],
      [`${load.manyWorkers} long-polling workers`, r.pushHalfMany.p99],
      [`${load.workers} job streams`, r.streamHalf.p99]
    ] as const
    for (const [workers, p99] of pushes) line(`job push p99 < 20 ms at half rate, ${workers}`, `${p99} ms`, p99 < 20)
  }
}

export const printServiceReport = (rows: ReadonlyArray<ServiceRow>, load: ServiceLoad) => {
  printThroughput(rows, load)
  printHalfRate(rows, load)
  printCpu(rows)
  printTargets(rows, load)
}

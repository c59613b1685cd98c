// What one cross-node hop costs (bench:cluster): with two nodes, instances started through node A live on A (starts
// never hop); their jobs are completed in rounds either through A (the command runs where it arrives) or through B
// (every completion travels to A as a message to the ProcessInstance entity and its answer back). CPU per completion
// of each node and of PostgreSQL, rounds interleaved so the machine's drift falls on both ways alike.
import type { ChildProcess } from "node:child_process"
import { apiCall, cpuMillisOf, postgresCpuMillis } from "./ServiceUnderTest.ts"

export interface HopRound {
  readonly via: "owner" | "other node"
  readonly ownerMillis: number
  readonly otherMillis: number
  readonly databaseMillis: number
  readonly perSecond: number
}

const IN_FLIGHT = 16

export const hopRounds = async (
  nodes: readonly [ChildProcess, ChildProcess],
  bases: readonly [string, string],
  token: string,
  deploymentId: string,
  { count, rounds }: { readonly count: number; readonly rounds: number }
): Promise<ReadonlyArray<HopRound>> => {
  const call = (node: 0 | 1, method: string, path: string, body?: unknown) =>
    apiCall(bases[node], token, method, path, body)
  const inFlight = async (total: number, request: (i: number) => Promise<unknown>) => {
    let next = 0
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) await request(next++)
    }))
  }
  const round = async (via: 0 | 1, total: number): Promise<HopRound> => {
    await inFlight(total, () => call(0, "POST", "/process-instances", { deploymentId }))
    const jobs: Array<string> = []
    while (jobs.length < total) {
      const batch = await call(0, "POST", "/jobs/activation", {
        type: "charge-card",
        worker: "hop",
        maxJobsToActivate: 200,
        timeout: 600_000,
        requestTimeout: 0
      })
      for (const job of batch.jobs as Array<{ id: string }>) jobs.push(job.id)
    }
    const cpu0 = nodes.map((node) => cpuMillisOf(node.pid!))
    const database0 = postgresCpuMillis()
    const t0 = performance.now()
    await inFlight(total, (i) => call(via, "POST", `/jobs/${jobs[i]}/complete`, {}))
    const seconds = (performance.now() - t0) / 1000
    const cpu = nodes.map((node, i) => (cpuMillisOf(node.pid!) - cpu0[i]!) / total)
    return {
      via: via === 0 ? "owner" : "other node",
      ownerMillis: cpu[0]!,
      otherMillis: cpu[1]!,
      databaseMillis: (postgresCpuMillis() - database0) / total,
      perSecond: Math.round(total / seconds)
    }
  }
  // Unmeasured first: both ways warm (the second node's code, its connections, the runners' sockets).
  await round(1, Math.ceil(count / 4))
  await round(0, Math.ceil(count / 4))
  const result: Array<HopRound> = []
  for (let i = 0; i < rounds; i++) result.push(await round(i % 2 === 0 ? 0 : 1, count))
  return result
}

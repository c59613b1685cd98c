// Latencies at half of the maximum rate (issue 11's targets are stated there): the load is open-loop — requests go out
// on a fixed schedule whether or not earlier ones have been answered — so a slow answer cannot slow the load down and
// hide itself, as it does in a closed loop of clients.
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { sseData } from "../test/support/ServerSentEvents.ts"
import { connectionsOpened, MAX_CONNECTIONS } from "./LeanHttp.ts"
import type { PushWorkersTask } from "./PushWorkers.ts"
import { percentile } from "./ServiceUnderTest.ts"

type Call = (method: string, path: string, body?: unknown) => Promise<any>

/**
 * Opens the client's connections before a phase, as a load generator with a fixed set of connections (wrk2) or a
 * client's kept-alive pool holds them. Otherwise the phase's first second opens them, when the requests in flight
 * outgrow the connections left from before (the service closes one idle for 5 s, Node's default): on these 2 cores that
 * connecting made the first second's publishes wait 300–500 ms on the client's side while the service's own time stayed
 * under ~120 ms — p99 376–454 ms against 76–99 ms with the connections open (docs/scaling.md, session 26). Each phase
 * reports the connections it still opened.
 */
const openConnections = (call: Call) =>
  Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => call("GET", "/health")))

/** `run` with the client's connections opened first; also answers how many it opened meanwhile. */
const withConnections = async <A>(call: Call, run: () => Promise<A>) => {
  await openConnections(call)
  const before = connectionsOpened()
  const result = await run()
  return { ...result, connectionsOpened: connectionsOpened() - before }
}

/** A phase made to run with the client's connections opened first (its first argument is the client). */
const withConnectionsOpened =
  <Args extends [Call, ...Array<any>], A>(phase: (...args: Args) => Promise<A>) => (...args: Args) =>
    withConnections(args[0], () => phase(...args))

/** `fire(i)` for i = 0.. at `perSecond` for `seconds`, on schedule; resolves when every call has been answered. */
export const paced = async (perSecond: number, seconds: number, fire: (i: number) => Promise<void>) => {
  const total = Math.max(1, Math.floor(perSecond * seconds))
  const t0 = performance.now()
  const inFlight: Array<Promise<void>> = []
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / perSecond - performance.now()
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait))
    inFlight.push(fire(i))
  }
  await Promise.all(inFlight)
}

const p50p99 = (latencies: Array<number>) => {
  latencies.sort((a, b) => a - b)
  return { p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)) }
}

/**
 * Publish latency at `perSecond` (half the measured correlation rate): as many instances wait at the message catch
 * event (keys `half-<i>`) as there will be publishes; each publish must correlate one.
 */
export const publishAtRate = async (call: Call, deploymentId: string, perSecond: number, seconds: number) => {
  const count = Math.max(1, Math.floor(perSecond * seconds))
  let started = 0
  await Promise.all(Array.from({ length: 32 }, async () => {
    while (started < count) {
      const i = started++
      await call("POST", "/process-instances", { deploymentId, variables: { key: `half-${i}` } })
    }
  }))
  const latencies: Array<number> = []
  return withConnections(call, async () => {
    await paced(perSecond, seconds, async (i) => {
      const t = performance.now()
      const result = await call("POST", "/messages", { messageName: "bench-paid", correlationKey: `half-${i}` })
      if (result.correlatedCount !== 1) throw new Error(`message half-${i} correlated ${result.correlatedCount}`)
      latencies.push(performance.now() - t)
    })
    return p50p99(latencies)
  })
}

/**
 * Job push at `perSecond` instance starts (half the measured instance rate): `workers` long-polling workers take the
 * jobs (`jobType`), poll again at once and complete them meanwhile; the latency is from each job's creation (its
 * createdAt, the commit's clock — this machine's) to a worker holding it. Also split by how the job reached its
 * worker: `handed` in its creating commit to a poll waiting or looking (its lease is dated at its creation, so its
 * deadline is createdAt + the timeout), or `found` by a look that began after it was created (a job created while every
 * worker was away: its answer and next request on their way).
 */
const pushPhase = async (
  call: Call,
  deploymentId: string,
  jobType: string,
  workers: number,
  perSecond: number,
  seconds: number
) => {
  const latencies: Array<number> = []
  const handed: Array<number> = []
  const found: Array<number> = []
  const timeout = 60_000
  const total = Math.max(1, Math.floor(perSecond * seconds))
  let received = 0
  const starting = paced(perSecond, seconds, async () => {
    await call("POST", "/process-instances", { deploymentId })
  })
  const stopAt = performance.now() + seconds * 1000 + 5_000
  // A worker polls again at once and completes what it got meanwhile: the jobs find it waiting.
  const completions: Array<Promise<unknown>> = []
  await Promise.all([
    starting,
    ...Array.from({ length: workers }, async (_, w) => {
      while (received < total && performance.now() < stopAt) {
        const { jobs } = await call("POST", "/jobs/activation", {
          type: jobType,
          worker: `half-${w}`,
          maxJobsToActivate: 32,
          timeout,
          requestTimeout: 1_000
        })
        const now = Date.now()
        received += jobs.length
        for (const job of jobs as Array<{ id: string; createdAt: string; deadline: string }>) {
          const created = Date.parse(job.createdAt)
          latencies.push(now - created)
          ;(Date.parse(job.deadline) - timeout - created <= 1 ? handed : found).push(now - created)
          completions.push(call("POST", `/jobs/${job.id}/complete`, {}))
        }
      }
    })
  ])
  await Promise.all(completions)
  const split = (part: Array<number>) => ({ count: part.length, ...p50p99(part) })
  return { ...p50p99(latencies), handed: split(handed), found: split(found) }
}

/**
 * Job push to `streams` server-sent job streams (GET /jobs/stream) at `perSecond` instance starts: each streamed job is
 * completed; the latency is from each job's creation to its event arriving.
 */
const streamPushPhase = async (
  call: Call,
  openStream: (query: string, signal: AbortSignal) => Promise<Response>,
  deploymentId: string,
  jobType: string,
  streams: number,
  perSecond: number,
  seconds: number
) => {
  const latencies: Array<number> = []
  const total = Math.max(1, Math.floor(perSecond * seconds))
  const controller = new AbortController()
  const completions: Array<Promise<unknown>> = []
  let received = 0
  let allReceived: () => void = () => {}
  const done = new Promise<void>((resolve) => (allReceived = resolve))
  const readers = await Promise.all(Array.from({ length: streams }, async (_, s) => {
    const response = await openStream(`type=${jobType}&worker=stream-${s}&timeout=60000`, controller.signal)
    // wrapped: an async function returning the promise itself would wait for it
    return {
      reading: (async () => {
        try {
          for await (const job of sseData<{ id: string; createdAt: string }>(response.body!)) {
            latencies.push(Date.now() - Date.parse(job.createdAt))
            completions.push(call("POST", `/jobs/${job.id}/complete`, {}))
            if (++received >= total) allReceived()
          }
        } catch {
          // aborted at the end
        }
      })()
    }
  }))
  await paced(perSecond, seconds, async () => {
    await call("POST", "/process-instances", { deploymentId })
  })
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10_000))])
  controller.abort()
  await Promise.all(readers.map((stream) => stream.reading))
  await Promise.all(completions)
  return p50p99(latencies)
}

export const pushAtRate = withConnectionsOpened(pushPhase)
export const streamPushAtRate = withConnectionsOpened(streamPushPhase)

/**
 * Job push at `perSecond` instance starts with the `workers` long polls or streams in a process of their own
 * (bench/PushWorkers.ts): the starts go out from this process, the jobs are timed where the workers are.
 */
export const pushFromOwnProcess = async (
  call: Call,
  worker: Omit<PushWorkersTask, "total" | "stopAfterMs">,
  deploymentId: string,
  perSecond: number,
  seconds: number
) => {
  const total = Math.max(1, Math.floor(perSecond * seconds))
  const task: PushWorkersTask = { ...worker, total, stopAfterMs: seconds * 1000 + 10_000 }
  const child = spawn(process.execPath, [
    fileURLToPath(new URL("./PushWorkers.ts", import.meta.url)),
    JSON.stringify(task)
  ], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const ready = await lines.next()
  if (ready.value !== "ready") throw new Error(`the push workers' process said ${String(ready.value)}`)
  return withConnections(call, async () => {
    await paced(perSecond, seconds, async () => {
      await call("POST", "/process-instances", { deploymentId })
    })
    const result = await lines.next()
    return JSON.parse(String(result.value)) as { readonly count: number; readonly p50: number; readonly p99: number }
  })
}

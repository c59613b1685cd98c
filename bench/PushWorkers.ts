// The job workers of a push phase in a process of their own, as a user's workers run (HalfRate.pushFromOwnProcess):
// the in-process phases time the jobs in the bench's process, whose one thread also starts the instances on schedule
// and completes the jobs, so its own event-loop delays (p99 11–12 ms there, docs/scaling.md session 29) are part of
// their figure. Reads its task from argv; prints "ready" once its workers are asking or listening, then one line of
// JSON: how many jobs it took, and p50/p99 from each job's createdAt to its arrival here.
import { sseData } from "../test/support/ServerSentEvents.ts"
import { apiCall, percentile } from "./ServiceUnderTest.ts"

export interface PushWorkersTask {
  readonly base: string
  readonly token: string
  readonly jobType: string
  readonly mode: "poll" | "stream"
  readonly workers: number
  readonly total: number
  readonly stopAfterMs: number
}

const task = JSON.parse(process.argv[2]!) as PushWorkersTask
const call = (method: string, path: string, body?: unknown) => apiCall(task.base, task.token, method, path, body)
const latencies: Array<number> = []
const completions: Array<Promise<unknown>> = []
const took = (job: { readonly id: string; readonly createdAt: string }) => {
  latencies.push(Date.now() - Date.parse(job.createdAt))
  completions.push(call("POST", `/jobs/${job.id}/complete`, {}))
}
const stopAt = performance.now() + task.stopAfterMs

if (task.mode === "poll") {
  const loops = Array.from({ length: task.workers }, async (_, w) => {
    while (latencies.length < task.total && performance.now() < stopAt) {
      const { jobs } = await call("POST", "/jobs/activation", {
        type: task.jobType,
        worker: `own-${w}`,
        maxJobsToActivate: 32,
        timeout: 60_000,
        requestTimeout: 1_000
      })
      for (const job of jobs) took(job)
    }
  })
  console.log("ready")
  await Promise.all(loops)
} else {
  const controller = new AbortController()
  const responses = await Promise.all(
    Array.from(
      { length: task.workers },
      (_, s) =>
        fetch(`${task.base}/jobs/stream?type=${task.jobType}&worker=own-stream-${s}&timeout=60000`, {
          headers: { authorization: `Bearer ${task.token}` },
          signal: controller.signal
        })
    )
  )
  let allTaken: () => void = () => {}
  const done = new Promise<void>((resolve) => (allTaken = resolve))
  const readers = responses.map(async (response) => {
    try {
      for await (const job of sseData<{ id: string; createdAt: string }>(response.body!)) {
        took(job)
        if (latencies.length >= task.total) allTaken()
      }
    } catch {
      // aborted at the end
    }
  })
  console.log("ready")
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, task.stopAfterMs))])
  controller.abort()
  await Promise.all(readers)
}
await Promise.all(completions)
latencies.sort((a, b) => a - b)
console.log(JSON.stringify({
  count: latencies.length,
  p50: Math.round(percentile(latencies, 50)),
  p99: Math.round(percentile(latencies, 99))
}))
process.exit(0)

// A job worker: takes jobs of one type from a flowcore service and runs a handler for each.
//  - Jobs arrive over the job stream (GET /api/v1/jobs/stream, server-sent events, each job already locked for this
//    worker); when the stream cannot be had, by long polling (POST /api/v1/jobs/activation with requestTimeout).
//  - At most `concurrency` handlers run at once: at capacity the stream is closed and taken up again when a slot frees
//    (backpressure: the service stops locking jobs for this worker; the few already pushed wait in a queue for a
//    slot); long polls ask for the free slots only.
//  - A running handler's lock is extended every `heartbeatEvery` ms (POST /jobs/{id}/heartbeat).
//  - The handler's result completes the job; a JobError throws a business error (BPMN error events catch it); any
//    other failure fails the job (retries minus one, the message recorded).
//  - Connection failures are retried with exponential backoff; stop() takes no new jobs and waits for running ones.
import { sseEvents } from "./Sse.ts"

export interface Job {
  readonly id: string
  readonly type: string
  readonly processInstanceId: string
  readonly retries: number
  readonly variables: Readonly<Record<string, unknown>>
  readonly customHeaders: Readonly<Record<string, string>>
}

/** Thrown by a handler: a BPMN business error with this code, caught by a matching error event (or an incident). */
export class JobError extends Error {
  readonly errorCode: string
  readonly variables: Readonly<Record<string, unknown>>
  constructor(errorCode: string, message = "", variables: Readonly<Record<string, unknown>> = {}) {
    super(message)
    this.errorCode = errorCode
    this.variables = variables
  }
}

export interface WorkerOptions {
  /** The service, e.g. http://localhost:8080 */
  readonly baseUrl: string
  /** A bearer token, or a function that gives a fresh one (called before each connection). */
  readonly token: string | (() => Promise<string>)
  readonly type: string
  /** This worker's name, recorded on the jobs it holds. */
  readonly worker: string
  /** Runs one job; its result (variables) completes the job. */
  readonly handler: (job: Job) => Promise<Readonly<Record<string, unknown>> | void>
  /** Handlers running at most at once (default 8). */
  readonly concurrency?: number
  /** Lock duration of each job, ms (default 60000). */
  readonly lockTimeout?: number
  /** Extend the lock of a running job this often, ms (default half the lock). */
  readonly heartbeatEvery?: number
  /** Use the job stream (default true); false: long polling only. */
  readonly stream?: boolean
  /** Long poll wait, ms (default 10000). */
  readonly pollWait?: number
  readonly onError?: (error: unknown) => void
}

export interface Worker {
  /** Takes no new jobs, then waits for the running handlers. */
  readonly stop: () => Promise<void>
  readonly stats: {
    readonly completed: number
    readonly failed: number
    readonly errors: number
    readonly running: number
  }
}

export const createWorker = (options: WorkerOptions): Worker => {
  const concurrency = options.concurrency ?? 8
  const lockTimeout = options.lockTimeout ?? 60_000
  const heartbeatEvery = options.heartbeatEvery ?? Math.max(1_000, Math.floor(lockTimeout / 2))
  const api = `${options.baseUrl.replace(/\/+$/, "")}/api/v1`
  const stats = { completed: 0, failed: 0, errors: 0, running: 0 }
  const running = new Set<Promise<void>>()
  let stopped = false
  let streamAbort: AbortController | undefined
  let slotFreed: (() => void) | undefined
  const report = options.onError ?? ((error: unknown) => console.error(`worker ${options.worker}:`, error))

  const token = async () => (typeof options.token === "string" ? options.token : options.token())
  const call = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal })
    })
    const json = await response.json() as { success: boolean; data?: unknown; message?: string }
    if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${json.message ?? ""}`)
    return json.data
  }

  const queued: Array<Job> = []
  /** Runs the job now if a slot is free, else queues it (it is locked for this worker already). */
  const take = (job: Job) => {
    if (stats.running < concurrency) run(job)
    else queued.push(job)
    if (stats.running >= concurrency) streamAbort?.abort()
  }

  const run = (job: Job) => {
    stats.running++
    const heartbeat = setInterval(() => {
      void call("POST", `/jobs/${job.id}/heartbeat`, { worker: options.worker, timeout: lockTimeout }).catch(report)
    }, heartbeatEvery)
    const task = (async () => {
      try {
        const variables = (await options.handler(job)) ?? {}
        await call("POST", `/jobs/${job.id}/complete`, { variables })
        stats.completed++
      } catch (error) {
        try {
          if (error instanceof JobError) {
            await call("POST", `/jobs/${job.id}/error`, {
              errorCode: error.errorCode,
              errorMessage: error.message,
              variables: error.variables
            })
            stats.errors++
          } else {
            await call("POST", `/jobs/${job.id}/fail`, {
              retries: Math.max(0, job.retries - 1),
              errorMessage: error instanceof Error ? error.message : String(error)
            })
            stats.failed++
          }
        } catch (reportError) {
          report(reportError)
        }
      } finally {
        clearInterval(heartbeat)
        stats.running--
        const next = queued.shift()
        if (next !== undefined) run(next)
        else slotFreed?.()
      }
    })()
    running.add(task)
    void task.finally(() => running.delete(task))
  }

  const slot = () =>
    (stats.running < concurrency && queued.length === 0) || stopped
      ? Promise.resolve()
      : new Promise<void>((resolve) => (slotFreed = resolve))

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  const streamOnce = async () => {
    streamAbort = new AbortController()
    const query = new URLSearchParams({ type: options.type, worker: options.worker, timeout: String(lockTimeout) })
    const response = await fetch(`${api}/jobs/stream?${query}`, {
      headers: { authorization: `Bearer ${await token()}`, accept: "text/event-stream" },
      signal: streamAbort.signal
    })
    if (!response.ok || response.body === null) throw new Error(`job stream: ${response.status}`)
    try {
      for await (const data of sseEvents(response.body)) {
        take(JSON.parse(data) as Job)
        if (stopped) break
      }
    } catch (error) {
      if (!streamAbort.signal.aborted) throw error
    }
  }

  const pollOnce = async () => {
    const free = Math.max(1, concurrency - stats.running)
    const data = await call("POST", "/jobs/activation", {
      type: options.type,
      worker: options.worker,
      maxJobsToActivate: free,
      timeout: lockTimeout,
      requestTimeout: options.pollWait ?? 10_000
    }) as { jobs: Array<Job> }
    for (const job of data.jobs) take(job)
  }

  const loop = (async () => {
    let backoff = 250
    let streamFailures = 0
    while (!stopped) {
      await slot()
      if (stopped) break
      try {
        if (options.stream !== false && streamFailures < 3) await streamOnce()
        else await pollOnce()
        backoff = 250
        streamFailures = 0
      } catch (error) {
        if (stopped) break
        if (options.stream !== false) streamFailures++
        report(error)
        await sleep(backoff)
        backoff = Math.min(backoff * 2, 10_000)
      }
    }
  })()

  return {
    stats,
    stop: async () => {
      stopped = true
      streamAbort?.abort()
      slotFreed?.()
      await loop
      // jobs already locked for this worker are run before it stops
      while (running.size > 0) await Promise.all(running)
    }
  }
}

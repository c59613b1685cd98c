// Wakes waiting job workers: a long-polling activation or a job stream waits here until a job of its type may have
// become available (announced by the instance entity right after it commits new jobs), or until its time is up.
// In a cluster the announcement also goes to every other node through PostgreSQL's NOTIFY (a worker may wait on any
// node, the job's instance lives on one). Waiters also re-check on their own, so a job that becomes available without
// an announcement (a retry backoff running out, an expired lock) is found a moment later.
import { PgClient } from "@effect/sql-pg"
import { Context, Deferred, Effect, Exit, Layer, Queue, type Scope } from "effect"
import { ClusterInfo } from "../actors/Cluster.ts"
import { AppConfig } from "../config.ts"
import type { CommitAuditShape } from "../persistence/CommitAudit.ts"
import { makeGroupCommit } from "../persistence/GroupCommit.ts"
import type { Job } from "../schema/Work.ts"

const CHANNEL = "flowcore_jobs"

interface Announcement {
  readonly tenantId: string
  readonly jobTypes: ReadonlyArray<string>
}

/** A waiting worker's activation, as the instance entity sees it: it may hand a job it creates straight to it. */
export interface JobTaker {
  readonly worker: string
  /** How long the worker's lease lasts (its activation's `timeout`). */
  readonly lockMillis: number
  /** The audit record of the worker's request, which the commit of the job leased to it may write (CommitAudit.ts). */
  readonly audit: CommitAuditShape | undefined
  /** The job was committed leased to this worker: the activation answers it. */
  readonly deliver: (job: Job) => void
  /** The commit did not happen: the activation goes back to looking. */
  readonly release: () => void
}

/** What a listener that takes pushed jobs says of itself. */
export type TakerOf = Pick<JobTaker, "worker" | "lockMillis" | "audit">

export interface JobAvailabilityShape {
  readonly announce: (tenantId: string, jobTypes: ReadonlyArray<string>) => Effect.Effect<void>
  /**
   * Starts listening for jobs of the type; the answer waits until one is announced (or was announced since the
   * listening began) or `timeoutMillis` — or, when the listener is a taker, until jobs are handed to it: up to
   * `capacity` (default 1) of them, those reserved for it before the first was handed over (the jobs of the commits in
   * flight then, so the first waits at most for one more commit). Listen BEFORE looking for jobs: an announcement made
   * while the worker looks then still wakes it.
   */
  readonly listen: (
    tenantId: string,
    jobType: string,
    taker?: TakerOf,
    capacity?: number
  ) => Effect.Effect<
    (timeoutMillis: number) => Effect.Effect<ReadonlyArray<Job> | undefined>,
    never,
    Scope.Scope
  >
  /**
   * A worker of this node waiting (not looking) for a job of the type, taken out of the waiting: the caller commits
   * the job leased to it, then calls `deliver` — or `release` when the commit failed. Undefined: none waits here.
   */
  readonly reserve: (tenantId: string, jobType: string) => JobTaker | undefined
  /**
   * A job stream's standing listener, for the stream's whole life (its scope): unlike a long poll, which takes one
   * pushed job and answers, a stream may be handed several jobs at once — as many as `capacity` not yet taken by it.
   */
  readonly listenStream: (
    tenantId: string,
    jobType: string,
    taker: TakerOf,
    capacity: number
  ) => Effect.Effect<JobStreamListener, never, Scope.Scope>
}

/** What a job stream asks for next (JobAvailability.listenStream). */
export interface JobStreamListener {
  /**
   * The jobs handed to the stream since it last asked; when there are none, waits up to `timeoutMillis` for some.
   * `look`: a job of the type was announced (one nobody here was handed), or the time ran out — the stream looks in
   * the database (for jobs of other nodes, retries whose backoff ran out, expired locks).
   */
  readonly next: (
    timeoutMillis: number
  ) => Effect.Effect<{ readonly jobs: ReadonlyArray<Job>; readonly look: boolean }>
}

interface Listener {
  readonly answer: Deferred.Deferred<ReadonlyArray<Job> | undefined>
  readonly taker: TakerOf | undefined
  readonly capacity: number
  /**
   * looking: not yet waiting (only woken); waiting: may be reserved; reserved: commits are handing it jobs, and more
   * may be reserved for it while there is room; closing: one of them has ended, it answers when the others have.
   */
  state: "looking" | "waiting" | "reserved" | "closing"
  /** Reservations whose commits have not ended. */
  outstanding: number
  readonly delivered: Array<Job>
}

interface StreamListener {
  readonly taker: TakerOf
  readonly capacity: number
  /** Jobs reserved for the stream and not yet taken by it: being committed, or delivered and waiting. */
  outstanding: number
  readonly delivered: Array<Job>
  /** A job of the type was announced since the stream last looked. */
  announced: boolean
  /** The stream's wait for the next job, while it waits. */
  waiter: Deferred.Deferred<void> | undefined
}

const wake = (stream: StreamListener) => {
  const waiter = stream.waiter
  stream.waiter = undefined
  if (waiter !== undefined) Deferred.doneUnsafe(waiter, Exit.void)
}

/** Availability within this process (the cluster adds announcements between nodes, below). */
export const inProcess = (): JobAvailabilityShape => {
  const listeners = new Map<string, Set<Listener>>()
  const streams = new Map<string, Set<StreamListener>>()
  const keyOf = (tenantId: string, jobType: string) => `${tenantId}\u0000${jobType}`
  /** A stream with room, moved to the back of its set so that the streams of a type take turns. */
  const streamWithRoom = (key: string) => {
    const set = streams.get(key)
    for (const stream of set ?? []) {
      if (stream.outstanding >= stream.capacity) continue
      set!.delete(stream)
      set!.add(stream)
      return stream
    }
    return undefined
  }
  const longPollFor = (key: string, state: "waiting" | "reserved") => {
    for (const listener of listeners.get(key) ?? []) {
      if (listener.taker === undefined || listener.state !== state) continue
      if (listener.outstanding + listener.delivered.length < listener.capacity) return listener
    }
    return undefined
  }
  const remove = (key: string, listener: Listener) => {
    const current = listeners.get(key)
    current?.delete(listener)
    if (current !== undefined && current.size === 0) listeners.delete(key)
  }
  return {
    announce: (tenantId, jobTypes) =>
      Effect.sync(() => {
        for (const jobType of new Set(jobTypes)) {
          const key = keyOf(tenantId, jobType)
          for (const listener of listeners.get(key) ?? []) {
            if (listener.state === "reserved" || listener.state === "closing") continue
            Deferred.doneUnsafe(listener.answer, Effect.succeed(undefined))
            remove(key, listener)
          }
          for (const stream of streams.get(key) ?? []) {
            stream.announced = true
            wake(stream)
          }
        }
      }),
    listen: (tenantId, jobType, taker, capacity = 1) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const key = keyOf(tenantId, jobType)
          const listener: Listener = {
            answer: Deferred.makeUnsafe<ReadonlyArray<Job> | undefined>(),
            taker,
            capacity,
            state: "looking",
            outstanding: 0,
            delivered: []
          }
          const set = listeners.get(key) ?? new Set()
          set.add(listener)
          listeners.set(key, set)
          return { key, listener }
        }),
        ({ key, listener }) => Effect.sync(() => remove(key, listener))
      ).pipe(
        Effect.map(({ key, listener }) => (timeoutMillis: number) =>
          Effect.suspend(() => {
            if (listener.state === "looking") listener.state = "waiting"
            return Deferred.await(listener.answer).pipe(
              Effect.timeoutOption(timeoutMillis),
              Effect.flatMap((answered) => {
                if (answered._tag === "Some") return Effect.succeed(answered.value)
                // Timed out: unless commits are handing it jobs right now, it stops waiting.
                if (listener.state !== "reserved" && listener.state !== "closing") {
                  remove(key, listener)
                  return Effect.succeed(undefined)
                }
                return Deferred.await(listener.answer)
              })
            )
          })
        )
      ),
    reserve: (tenantId, jobType) => {
      const key = keyOf(tenantId, jobType)
      // Streams first (as Zeebe pushes to streams before long polls answer): a stream is always listening.
      const stream = streamWithRoom(key)
      if (stream !== undefined) {
        stream.outstanding++
        return {
          ...stream.taker,
          deliver: (job) => {
            stream.delivered.push(job)
            wake(stream)
          },
          release: () => void stream.outstanding--
        }
      }
      // A long poll that waits with nothing yet; else one whose first job is still being committed, while it has room.
      const listener = longPollFor(key, "waiting") ?? longPollFor(key, "reserved")
      if (listener === undefined || listener.taker === undefined) return undefined
      listener.state = "reserved"
      listener.outstanding++
      const settled = (job: Job | undefined) => {
        if (job !== undefined) listener.delivered.push(job)
        listener.outstanding--
        listener.state = "closing"
        remove(key, listener)
        if (listener.outstanding > 0) return
        Deferred.doneUnsafe(
          listener.answer,
          Effect.succeed(listener.delivered.length > 0 ? listener.delivered : undefined)
        )
      }
      return {
        worker: listener.taker.worker,
        lockMillis: listener.taker.lockMillis,
        audit: listener.taker.audit,
        deliver: settled,
        release: () => settled(undefined)
      }
    },
    listenStream: (tenantId, jobType, taker, capacity) =>
      Effect.map(
        Effect.acquireRelease(
          Effect.sync(() => {
            const key = keyOf(tenantId, jobType)
            const stream: StreamListener = {
              taker,
              capacity,
              outstanding: 0,
              delivered: [],
              announced: false,
              waiter: undefined
            }
            const set = streams.get(key) ?? new Set()
            set.add(stream)
            streams.set(key, set)
            return { key, stream }
          }),
          ({ key, stream }) =>
            Effect.sync(() => {
              const set = streams.get(key)
              set?.delete(stream)
              if (set !== undefined && set.size === 0) streams.delete(key)
            })
        ),
        ({ stream }): JobStreamListener => {
          const answer = (timedOut: boolean) => {
            const jobs = stream.delivered.splice(0)
            stream.outstanding -= jobs.length
            const look = jobs.length === 0 && (timedOut || stream.announced)
            if (look) stream.announced = false
            return { jobs, look }
          }
          return {
            next: (timeoutMillis) =>
              Effect.suspend(() => {
                if (stream.delivered.length > 0 || stream.announced) return Effect.succeed(answer(false))
                const waiter = Deferred.makeUnsafe<void>()
                stream.waiter = waiter
                return Effect.map(Effect.timeoutOption(Deferred.await(waiter), timeoutMillis), (woken) => {
                  if (stream.waiter === waiter) stream.waiter = undefined
                  return answer(woken._tag === "None")
                })
              })
          }
        }
      )
  }
}

export class JobAvailability
  extends Context.Service<JobAvailability, JobAvailabilityShape>()("flowcore/JobAvailability")
{
  static readonly layer = Layer.effect(
    JobAvailability,
    Effect.gen(function*() {
      const local = inProcess()
      if ((yield* AppConfig).cluster.mode !== "socket") return local
      const pg = yield* PgClient.PgClient
      const cluster = yield* ClusterInfo
      const notifications = yield* pg.listen(CHANNEL)
      yield* Effect.forkScoped(Effect.forever(
        Effect.flatMap(Queue.take(notifications), (notification) => {
          const { tenantId, jobTypes } = JSON.parse(notification.payload) as {
            tenantId: string
            jobTypes: Array<string>
          }
          return local.announce(tenantId, jobTypes)
        }).pipe(Effect.catchCause((cause) =>
          // the waiters' own re-checks cover what is missed meanwhile
          Effect.andThen(
            Effect.logWarning("job announcements from other nodes interrupted", cause),
            Effect.sleep("1 second")
          )
        ))
      ))
      // Announcements made while one is being sent go out together: one notification per tenant for the batch.
      const outgoing = makeGroupCommit<Announcement, void, never>({
        maxBatch: 1_000,
        maxInFlight: 1,
        flush: (batch) => {
          const byTenant = new Map<string, Set<string>>()
          for (const { tenantId, jobTypes } of batch) {
            const types = byTenant.get(tenantId) ?? new Set()
            jobTypes.forEach((type) => types.add(type))
            byTenant.set(tenantId, types)
          }
          return Effect.forEach(
            byTenant,
            ([tenantId, types]) => pg.notify(CHANNEL, JSON.stringify({ tenantId, jobTypes: [...types] })),
            { discard: true }
          ).pipe(
            Effect.catchCause((cause) => Effect.logWarning("job announcement to other nodes failed", cause)),
            Effect.as(batch.map(() => Exit.void))
          )
        }
      })
      return {
        // Workers on this node are told at once; the other nodes' announcement is not waited for, and a node that
        // is alone sends none (a node that joins is seen at the health watch's next look, within 250 ms; its
        // workers' own looks cover a job created meanwhile).
        announce: (tenantId, jobTypes) =>
          Effect.andThen(
            local.announce(tenantId, jobTypes),
            Effect.suspend(() =>
              cluster.hasPeers()
                ? Effect.asVoid(Effect.forkDetach(outgoing.submit({ tenantId, jobTypes })))
                : Effect.void
            )
          ),
        listen: local.listen,
        reserve: local.reserve,
        listenStream: local.listenStream
      }
    })
  )
}

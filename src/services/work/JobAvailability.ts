// Wakes waiting job workers: a long-polling activation or a job stream waits here until a job of its type may have
// become available (announced by the instance entity right after it commits new jobs), or until its time is up.
// In a cluster the announcement also goes to every other node through PostgreSQL's NOTIFY (a worker may wait on any
// node, the job's instance lives on one). Waiters also re-check on their own, so a job that becomes available without
// an announcement (a retry backoff running out, an expired lock) is found a moment later.
import { PgClient } from "@effect/sql-pg"
import { Context, Deferred, Effect, Exit, Layer, Metric, Queue, type Scope } from "effect"
import { ClusterInfo } from "../../cluster/Cluster.ts"
import { AppConfig } from "../../config.ts"
import { jobsAnnounced } from "../../observability/Metrics.ts"
import { makeGroupCommit } from "../../persistence/GroupCommit.ts"
import type { Job } from "../../schema/Work.ts"
import type { JobTaker, TakerOf } from "./JobTaker.ts"
import { type ListenLongPoll, makeLongPolls } from "./LongPollListeners.ts"

const CHANNEL = "flowcore_jobs"

interface Announcement {
  readonly tenantId: string
  readonly jobTypes: ReadonlyArray<string>
}

export interface JobAvailabilityShape {
  /**
   * Jobs nobody here was handed were committed: `jobTypes` holds each one's type (a type once per job). As many long
   * polls as there are jobs of a type are woken to look, and every stream of the type; other nodes are told too.
   */
  readonly announce: (tenantId: string, jobTypes: ReadonlyArray<string>) => Effect.Effect<void>
  /**
   * Starts listening for jobs of the type, for the activation's scope (LongPollListeners.ts): its answer waits until
   * one is announced (or was announced since the listening began), or jobs are handed to it — up to `capacity`
   * (default 1), while it waits and, within the room its look leaves, while it looks. Listen BEFORE looking for jobs:
   * an announcement made while the worker looks then still wakes it.
   */
  readonly listen: ListenLongPoll
  /**
   * A worker of this node waiting for a job of the type (a stream, else a long poll with room): the caller commits the
   * job leased to it, then calls `deliver` — or `release` when the commit failed. Undefined: none waits here.
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
export const inProcess = (): JobAvailabilityShape & {
  /** Jobs of these types were announced by another node (pg_notify), in an unknown number. */
  readonly announceFromPeer: (tenantId: string, jobTypes: ReadonlyArray<string>) => Effect.Effect<void>
} => {
  const longPolls = makeLongPolls()
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
  const announceKey = (key: string, count: number) => {
    longPolls.announce(key, count)
    for (const stream of streams.get(key) ?? []) {
      stream.announced = true
      wake(stream)
    }
  }
  return {
    announce: (tenantId, jobTypes) =>
      Effect.andThen(
        Effect.sync(() => {
          const counts = new Map<string, number>()
          for (const jobType of jobTypes) counts.set(jobType, (counts.get(jobType) ?? 0) + 1)
          for (const [jobType, count] of counts) announceKey(keyOf(tenantId, jobType), count)
        }),
        Metric.update(jobsAnnounced, jobTypes.length)
      ),
    announceFromPeer: (tenantId, jobTypes) =>
      Effect.sync(() => {
        // How many jobs another node made is not told: every listener here that holds nothing looks.
        for (const jobType of new Set(jobTypes)) announceKey(keyOf(tenantId, jobType), Number.POSITIVE_INFINITY)
      }),
    listen: (tenantId, jobType, taker, capacity = 1) => longPolls.listen(keyOf(tenantId, jobType), taker, capacity),
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
      return longPolls.reserve(key)
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
          return local.announceFromPeer(tenantId, jobTypes)
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

// Wakes waiting job workers: a long-polling activation or a job stream waits here until a job of its type may have
// become available (announced by the instance entity right after it commits new jobs), or until its time is up.
// In a cluster the announcement also goes to every other node through PostgreSQL's NOTIFY (a worker may wait on any
// node, the job's instance lives on one). Waiters also re-check on their own, so a job that becomes available without
// an announcement (a retry backoff running out, an expired lock) is found a moment later.
import { PgClient } from "@effect/sql-pg"
import { Context, Deferred, Effect, Exit, Layer, Queue, type Scope } from "effect"
import { AppConfig } from "../config.ts"
import { makeGroupCommit } from "../persistence/GroupCommit.ts"

const CHANNEL = "flowcore_jobs"

interface Announcement {
  readonly tenantId: string
  readonly jobTypes: ReadonlyArray<string>
}

export interface JobAvailabilityShape {
  readonly announce: (tenantId: string, jobTypes: ReadonlyArray<string>) => Effect.Effect<void>
  /**
   * Starts listening for jobs of the type; the answer waits until one is announced (or was announced since the
   * listening began), or `timeoutMillis`. Listen BEFORE looking for jobs: an announcement made while the worker looks
   * then still wakes it (no lost wake-up between an empty look and the wait).
   */
  readonly listen: (
    tenantId: string,
    jobType: string
  ) => Effect.Effect<(timeoutMillis: number) => Effect.Effect<void>, never, Scope.Scope>
}

const inProcess = (): JobAvailabilityShape => {
  const waiting = new Map<string, Set<Deferred.Deferred<void>>>()
  const keyOf = (tenantId: string, jobType: string) => `${tenantId}\u0000${jobType}`
  return {
    announce: (tenantId, jobTypes) =>
      Effect.sync(() => {
        for (const jobType of new Set(jobTypes)) {
          const key = keyOf(tenantId, jobType)
          for (const deferred of waiting.get(key) ?? []) Deferred.doneUnsafe(deferred, Effect.void)
          waiting.delete(key)
        }
      }),
    listen: (tenantId, jobType) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const key = keyOf(tenantId, jobType)
          const deferred = Deferred.makeUnsafe<void>()
          const set = waiting.get(key) ?? new Set()
          set.add(deferred)
          waiting.set(key, set)
          return { key, deferred }
        }),
        ({ key, deferred }) =>
          Effect.sync(() => {
            const current = waiting.get(key)
            current?.delete(deferred)
            if (current !== undefined && current.size === 0) waiting.delete(key)
          })
      ).pipe(
        Effect.map(({ deferred }) => (timeoutMillis: number) =>
          Deferred.await(deferred).pipe(Effect.timeoutOption(timeoutMillis), Effect.asVoid)
        )
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
        // Workers on this node are told at once; the other nodes' announcement is not waited for.
        announce: (tenantId, jobTypes) =>
          Effect.andThen(
            local.announce(tenantId, jobTypes),
            Effect.asVoid(Effect.forkDetach(outgoing.submit({ tenantId, jobTypes })))
          ),
        listen: local.listen
      }
    })
  )
}

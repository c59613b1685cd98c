// Wakes waiting job workers: a long-polling activation or a job stream waits here until a job of its type may have
// become available (announced by the instance entity right after it commits new jobs), or until its time is up.
// In-process only; waiters also re-check on their own, so a job that becomes available without an announcement (a
// retry backoff running out, an expired lock) is found a moment later.
import { Context, Deferred, Effect, Layer } from "effect"

export interface JobAvailabilityShape {
  readonly announce: (tenantId: string, jobTypes: ReadonlyArray<string>) => Effect.Effect<void>
  /** Returns when a job of the type is announced, or after `timeoutMillis`. */
  readonly awaitJobs: (tenantId: string, jobType: string, timeoutMillis: number) => Effect.Effect<void>
}

export class JobAvailability extends Context.Service<JobAvailability, JobAvailabilityShape>()("flowcore/JobAvailability") {
  static readonly layer = Layer.sync(JobAvailability, () => {
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
      awaitJobs: (tenantId, jobType, timeoutMillis) =>
        Effect.suspend(() => {
          const key = keyOf(tenantId, jobType)
          const deferred = Deferred.makeUnsafe<void>()
          const set = waiting.get(key) ?? new Set()
          set.add(deferred)
          waiting.set(key, set)
          return Deferred.await(deferred).pipe(
            Effect.timeoutOption(timeoutMillis),
            Effect.asVoid,
            Effect.ensuring(Effect.sync(() => {
              const current = waiting.get(key)
              current?.delete(deferred)
              if (current !== undefined && current.size === 0) waiting.delete(key)
            }))
          )
        })
    }
  })
}

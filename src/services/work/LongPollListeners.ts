// Long-polling activations waiting on this node (JobAvailability.ts composes them with the job streams). A long poll
// is a taker of pushed jobs while it waits, and also while it looks in the database — within the room its
// maxJobsToActivate leaves once the look's lease statement has answered: under load a long poll is almost never waiting
// (it is on its way or looking), so a job created meanwhile was announced and waited for the worker's next look
// (33 of 4,750 jobs pushed at 950 starts/s with 4 workers; docs/scaling.md, session 18).
import { Clock, Deferred, Effect, type Scope } from "effect"
import type { Job } from "../../schema/Work.ts"
import { makeEmptyLooks } from "./EmptyLooks.ts"
import type { JobTaker, TakerOf } from "./JobTaker.ts"

/**
 * How a look in the database and the jobs pushed meanwhile share an activation's maxJobsToActivate (the listener's
 * capacity): the look tells what it holds, the listener keeps the jobs handed to it within what is left.
 */
export interface LookBudget {
  /** Jobs handed to the activation so far while it looks (they count against its maxJobsToActivate). */
  readonly handed: () => number
  /**
   * The look's lease statement is about to run, with `left` jobs the activation may still take: answers how many the
   * statement asks for. The rest is kept for jobs pushed while it runs (by a look's first statement only: a look that
   * found as many as it asked for asks for the rest next); none is handed beyond it until the look says what it holds.
   * `picking(0)`: the look is over.
   */
  readonly picking: (left: number) => number
  /** The look holds `jobs` (leased): jobs may be handed to it in the room left. */
  readonly holding: (jobs: number) => void
}

/** A long poll's listener, for the activation's scope (JobAvailability.listen). */
export interface LongPollListener {
  readonly budget: LookBudget
  /**
   * After a look that found nothing: waits up to `timeoutMillis` for jobs handed over (up to the capacity), or an
   * announcement (undefined: look again). Handed jobs whose commits are under way are waited for.
   */
  readonly wait: (timeoutMillis: number) => Effect.Effect<ReadonlyArray<Job> | undefined>
  /** After a look that found jobs: no more are handed; the jobs handed while it looked, once their commits ended. */
  readonly collect: Effect.Effect<ReadonlyArray<Job>>
  /**
   * How long (ms) a look would still find nothing: the last look of its type found every job there was, and none was
   * announced since (EmptyLooks.ts). A long poll may wait that long instead of looking; 0: it looks.
   */
  readonly emptyFor: number
  /**
   * Its look found every job there was (`exhausted`: fewer than it asked for), and the next long polls may wait
   * instead of looking; or it found as many as it asked for: more may be waiting, and the next looks keep no room.
   */
  readonly looked: (exhausted: boolean) => Effect.Effect<void>
}

interface Listener {
  readonly answer: Deferred.Deferred<ReadonlyArray<Job> | undefined>
  readonly taker: TakerOf | undefined
  readonly capacity: number
  /**
   * looking: in the database (may be handed jobs within `room`); waiting: may be handed jobs up to the capacity;
   * closing: a commit handing it a job has ended (or it collects): it takes no more, and answers when the others have.
   */
  state: "looking" | "waiting" | "closing"
  /** How many jobs (handed and being handed) it may hold now. */
  room: number
  /** Reservations whose commits have not ended. */
  outstanding: number
  /** Its look has kept room for pushed jobs once (roomKeptForPushes). */
  keptRoom: boolean
  readonly delivered: Array<Job>
}

const held = (listener: Listener) => listener.outstanding + listener.delivered.length

/**
 * How many of the `left` jobs a long poll may still take its first lease statement is not asked for, but kept for jobs
 * pushed while the statement runs: a quarter, at most 4, none below 4. Under load a worker's next look begins while
 * jobs keep being created; with no room, those were announced and waited for the worker's look after this one (a third
 * of the jobs found late in docs/scaling.md, session 28).
 */
export const roomKeptForPushes = (left: number): number => Math.min(4, Math.floor(left / 4))

export const makeLongPolls = () => {
  const listeners = new Map<string, Set<Listener>>()
  const emptyLooks = makeEmptyLooks()
  const remove = (key: string, listener: Listener) => {
    const current = listeners.get(key)
    current?.delete(listener)
    if (current !== undefined && current.size === 0) listeners.delete(key)
  }
  const settle = (key: string, listener: Listener, job: Job | undefined) => {
    if (job !== undefined) listener.delivered.push(job)
    listener.outstanding--
    listener.state = "closing"
    remove(key, listener)
    if (listener.outstanding > 0) return
    Deferred.doneUnsafe(listener.answer, Effect.succeed(listener.delivered.length > 0 ? listener.delivered : undefined))
  }
  /** One that holds nothing yet first (waiting, then looking); else one that has room for more. */
  const takerFor = (key: string): Listener | undefined => {
    let fallback: Listener | undefined
    for (const listener of listeners.get(key) ?? []) {
      if (listener.taker === undefined || listener.state === "closing" || held(listener) >= listener.room) continue
      if (held(listener) === 0 && listener.state === "waiting") return listener
      fallback = fallback === undefined || (held(fallback) > 0 && held(listener) === 0) ? listener : fallback
    }
    return fallback
  }

  return {
    /**
     * `count` jobs of the key were committed and announced (no taker here had room for them). Every look under way is
     * told — it may have begun before the jobs were committed, and it looks again if it found nothing — but of the
     * long polls waiting with nothing, only as many as there are jobs: each looks and takes one, the others stay ready
     * for jobs pushed to them. (Waking every waiting poll made them all look, so none was left waiting for the next job,
     * which was announced in turn — a herd that kept the workers looking; docs/scaling.md, session 19.)
     */
    announce: (key: string, count: number) => {
      emptyLooks.announced(key)
      let waking = count
      for (const listener of listeners.get(key) ?? []) {
        if (listener.state === "closing" || held(listener) > 0) continue
        if (listener.state === "waiting") {
          if (waking <= 0) continue
          waking--
        }
        Deferred.doneUnsafe(listener.answer, Effect.succeed(undefined))
        remove(key, listener)
      }
    },
    listen: (key: string, taker: TakerOf | undefined, capacity: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (listenedAt) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            const listener: Listener = {
              answer: Deferred.makeUnsafe<ReadonlyArray<Job> | undefined>(),
              taker,
              capacity,
              state: "looking",
              room: 0,
              outstanding: 0,
              keptRoom: false,
              delivered: []
            }
            const set = listeners.get(key) ?? new Set()
            set.add(listener)
            listeners.set(key, set)
            return listener
          }),
          (listener) => Effect.sync(() => remove(key, listener))
        ).pipe(Effect.map((listener): LongPollListener => {
          // Noted before the look reads the database: a job announced meanwhile keeps its type from counting as empty.
          const mark = emptyLooks.mark(key)
          return {
            budget: {
              handed: () => held(listener),
              picking: (left) => {
                if (listener.state !== "looking") return left
                // After a look of the type that found as many as it asked for (a backlog), the statement takes all.
                const keep = listener.keptRoom || emptyLooks.backlog(key) ? 0 : roomKeptForPushes(left)
                listener.keptRoom = true
                listener.room = held(listener) + keep
                return left - keep
              },
              holding: (jobs) => {
                if (listener.state === "looking") listener.room = Math.max(held(listener), listener.capacity - jobs)
              }
            },
            wait: (timeoutMillis) =>
              Effect.suspend(() => {
                if (listener.state === "looking") {
                  listener.state = "waiting"
                  listener.room = listener.capacity
                }
                return Deferred.await(listener.answer).pipe(
                  Effect.timeoutOption(timeoutMillis),
                  Effect.flatMap((answered) => {
                    if (answered._tag === "Some") return Effect.succeed(answered.value)
                    // Timed out: unless commits are handing it jobs right now, it stops waiting.
                    if (held(listener) === 0) {
                      remove(key, listener)
                      return Effect.succeed(undefined)
                    }
                    return Deferred.await(listener.answer)
                  })
                )
              }),
            collect: Effect.suspend(() => {
              listener.room = 0
              if (listener.outstanding === 0) {
                remove(key, listener)
                return Effect.succeed(listener.delivered)
              }
              return Effect.map(Deferred.await(listener.answer), (jobs) => jobs ?? [])
            }),
            emptyFor: emptyLooks.emptyFor(key, listenedAt),
            looked: (exhausted) =>
              exhausted
                ? Effect.map(Clock.currentTimeMillis, (now) => emptyLooks.exhausted(key, mark, now))
                : Effect.sync(() => emptyLooks.found(key))
          }
        }))),
    /** A long poll with room reserved for a job being committed (its taker), or undefined. */
    reserve: (key: string): JobTaker | undefined => {
      const listener = takerFor(key)
      if (listener === undefined || listener.taker === undefined) return undefined
      listener.outstanding++
      return {
        worker: listener.taker.worker,
        lockMillis: listener.taker.lockMillis,
        audit: listener.taker.audit,
        deliver: (job) => settle(key, listener, job),
        release: () => settle(key, listener, undefined)
      }
    }
  }
}

export type LongPolls = ReturnType<typeof makeLongPolls>

/** For the scope of a long poll: a listener (JobAvailability.listen). */
export type ListenLongPoll = (
  tenantId: string,
  jobType: string,
  taker?: TakerOf,
  capacity?: number
) => Effect.Effect<LongPollListener, never, Scope.Scope>

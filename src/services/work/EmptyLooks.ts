// A long poll that would look in the database right after another look of its job type found nothing more, with no
// job of the type announced since, waits instead (as Zeebe's gateway parks a long poll for a type whose last attempt
// found no jobs, until jobs are notified). With many workers of a type, most of their polls found nothing — the jobs
// were pushed to the waiting ones — and each such look still cost a lease statement: 16 long-polling workers at 600
// starts/s made ~470 looks/s, nearly all empty, and their load slowed every commit (docs/scaling.md, session 19).
//
// Jobs that become available with time — a retry whose backoff ran out, a lease that ran out — are not announced:
// they are found by the next look after the mark expires (a skipped look waits at most EMPTY_LOOK_MILLIS before
// looking; a waiting long poll re-checks every second anyway). A job failed with retries left and no backoff, or given
// retries again (actors/JobLive.ts), and the waiting jobs of an instance resumed (actors/InstanceHandler.ts) are
// announced.
//
// The other way round, a look that found as many jobs as it asked for notes a backlog: the next looks of the type ask
// their statement for all they may take, keeping no room for pushed jobs (LongPollListeners.ts roomKeptForPushes).

/** How long a look that found a type exhausted spares the next long polls of that type their look. */
export const EMPTY_LOOK_MILLIS = 250

interface KeyState {
  /** Announcements of the key so far. */
  announced: number
  /** When a look last found the key exhausted, and how many announcements there had been when it began. */
  emptyAt: number | undefined
  emptyAtAnnounced: number
  /** The last look found as many jobs as it asked for: more may be waiting (LongPollListeners: no room kept). */
  backlog: boolean
}

export const makeEmptyLooks = () => {
  const keys = new Map<string, KeyState>()
  const stateOf = (key: string): KeyState => {
    let state = keys.get(key)
    if (state === undefined) {
      // Keys are tenant × job type: a bound keeps a flood of invented types from growing it.
      if (keys.size >= 10_000) keys.clear()
      state = { announced: 0, emptyAt: undefined, emptyAtAnnounced: 0, backlog: false }
      keys.set(key, state)
    }
    return state
  }
  return {
    /** A job of the key was announced: the next look finds it. */
    announced: (key: string) => {
      const state = keys.get(key)
      if (state !== undefined) state.announced++
    },
    /** The announcements so far: a look notes it when it begins (before it reads the database). */
    mark: (key: string) => stateOf(key).announced,
    /** A look that began at `mark` found every job there was, at `now`: unless one was announced meanwhile. */
    exhausted: (key: string, mark: number, now: number) => {
      const state = stateOf(key)
      state.backlog = false
      if (state.announced !== mark) return
      state.emptyAt = now
      state.emptyAtAnnounced = mark
    },
    /** A look found as many jobs of the key as it asked for: more may be waiting. */
    found: (key: string) => {
      stateOf(key).backlog = true
    },
    /** Whether the last look of the key found as many as it asked for. */
    backlog: (key: string): boolean => keys.get(key)?.backlog ?? false,
    /** How long (ms) a look now would still find nothing, as far as this node knows: 0 when it should look. */
    emptyFor: (key: string, now: number): number => {
      const state = keys.get(key)
      if (state?.emptyAt === undefined || state.announced !== state.emptyAtAnnounced) return 0
      return Math.max(0, state.emptyAt + EMPTY_LOOK_MILLIS - now)
    }
  }
}

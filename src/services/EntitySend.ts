// What a message to an entity (a process instance's, a job's) may meet in the cluster besides the entity's answer,
// and what the services make of it:
//  * MailboxFull — the node holds as many entities as it may (MAX_RESIDENT_ENTITIES) and this one is not among them.
//    Idle entities leave memory within seconds, so the send is tried again for a moment; still full, the request
//    fails with the error, which the edge answers as 503 with Retry-After (see EdgeMiddleware), never a 500.
//  * the other cluster failures (storage, a shard in transit past the cluster's own retries) are defects.
import { Effect, Schedule } from "effect"
import type { ClusterError } from "effect/cluster"

type ClusterFailure =
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError
  | ClusterError.EntityNotAssignedToRunner

const clusterTags: ReadonlySet<string> = new Set([
  "MailboxFull",
  "AlreadyProcessingMessage",
  "PersistenceError",
  "EntityNotAssignedToRunner"
])

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : undefined

const isClusterFailure = (error: unknown): error is ClusterFailure => clusterTags.has(tagOf(error) ?? "")

/** True for the error of a send that found no room for another resident entity. */
export const isEntitiesFull = (error: unknown): boolean => tagOf(error) === "MailboxFull"

/** About two seconds in all. */
const FULL_RETRIES = 20
const whileFull = Schedule.spaced("100 millis")

/** Tries a send again while the node has no room for the entity; then its cluster failures become defects. */
export const sendToEntity = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, ClusterFailure>, R> =>
  Effect.catchIf(
    Effect.retry(effect, { while: isEntitiesFull, schedule: whileFull, times: FULL_RETRIES }),
    isClusterFailure,
    Effect.die
  ) as Effect.Effect<A, Exclude<E, ClusterFailure>, R>

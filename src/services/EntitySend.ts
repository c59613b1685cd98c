// What a message to an entity (a process instance's, a job's) may meet in the cluster besides the entity's answer,
// and what the services make of it:
//  * MailboxFull (the cluster's entities) or ResidentInstancesFull (instances in memory, cluster/ResidentInstances.ts)
//    — the node holds as many as it may (MAX_RESIDENT_ENTITIES) and this one is not among them.
//    Idle entities leave memory within seconds, so the send is tried again for a moment; still full, the request
//    fails with the error, which the edge answers as 503 with Retry-After (see EdgeMiddleware), never a 500.
//  * the other cluster failures (storage, a shard in transit past the cluster's own retries) are defects.
//  * an interruption of the entity's handler (the node released the entity's shard under it: its shard locks could
//    not be renewed in time, or it is stopping) — a command with an id of its own is sent again (resendInterrupted)
//    until its shard has an owner again, who answers it: a command id applied before answers with its reply.
import { Cause, Clock, Context, Duration, Effect, Logger, References, Schedule, Tracer } from "effect"
import type { ClusterError } from "effect/cluster"
import type { ResidentInstancesFull } from "../cluster/ResidentInstances.ts"
import { CommitAudit } from "../persistence/instances/CommitAudit.ts"

export type ClusterFailure =
  | ResidentInstancesFull
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError
  | ClusterError.EntityNotAssignedToRunner

const clusterTags: ReadonlySet<string> = new Set([
  "ResidentInstancesFull",
  "MailboxFull",
  "AlreadyProcessingMessage",
  "PersistenceError",
  "EntityNotAssignedToRunner"
])

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : undefined

/** True for the cluster's own failures (a send that found no room, storage, a shard in transit): passing, not the message's. */
export const isClusterFailure = (error: unknown): error is ClusterFailure => clusterTags.has(tagOf(error) ?? "")

/** True for the error of a send that found no room for another resident entity. */
export const isEntitiesFull = (error: unknown): boolean =>
  tagOf(error) === "MailboxFull" || tagOf(error) === "ResidentInstancesFull"

/** About two seconds in all. */
const FULL_RETRIES = 20
const whileFull = Schedule.spaced("100 millis")

// The send runs with only the caller's tracing and logging. effect/cluster hands a message to an entity on this node
// with its sender's context, and the entity's handler runs in that context merged with the entity's own services (a
// copy of both maps; a new entity merges once more). From an HTTP handler the sender's context is the request's, ~70
// services: 30 KB of the ~340 KB a start allocates went into those copies, and the handler saw the request's
// principal and state, which it must not use. What it needs besides its own services is the trace (the span the
// message belongs to, the tracer that exports it), the loggers and the clock (an instance's command on the node that
// owns it runs in this context alone: cluster/ResidentInstances.ts) — and the request's audit record, offered to the
// command's commit (persistence/instances/CommitAudit.ts).
const carried: ReadonlyArray<Context.Key<any, any>> = [
  CommitAudit,
  Clock.Clock,
  Tracer.ParentSpan,
  Tracer.Tracer,
  References.TracerEnabled,
  Logger.CurrentLoggers,
  References.MinimumLogLevel,
  References.CurrentLogAnnotations
]
const senderContext = (context: Context.Context<never>): Context.Context<never> => {
  let lean = Context.empty() as Context.Context<unknown>
  for (const key of carried) {
    const value = Context.getOption(context, key)
    if (value._tag === "Some") lean = Context.add(lean, key, value.value)
  }
  return lean as Context.Context<never>
}

/** Tries a send again while the node has no room for the entity; then its cluster failures become defects. */
export const sendToEntity = <A, E>(
  effect: Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, ClusterFailure>> =>
  Effect.catchIf(
    Effect.retry(Effect.updateContext(effect, senderContext), {
      while: isEntitiesFull,
      schedule: whileFull,
      times: FULL_RETRIES
    }),
    isClusterFailure,
    Effect.die
  ) as Effect.Effect<A, Exclude<E, ClusterFailure>>

/** About three seconds in all: past a shard lock's refresh interval (2 s), within which a released shard is taken again. */
const INTERRUPTED_RESENDS = 15
const RESEND_AFTER = Duration.millis(200)

/**
 * Sends again a message whose handling was interrupted by the entity's side — never one interrupted by its sender,
 * whose own interruption is not caught. Only for messages that are applied once whatever the number of sends (an
 * instance's command, by its command id); after the last resend the interruption stands.
 */
export const resendInterrupted = <A, E, R>(
  send: Effect.Effect<A, E, R>,
  resends = INTERRUPTED_RESENDS,
  after: Duration.Duration = RESEND_AFTER
): Effect.Effect<A, E, R> =>
  Effect.catchCause(
    send,
    (cause) =>
      resends > 0 && Cause.hasInterruptsOnly(cause)
        ? Effect.andThen(Effect.sleep(after), resendInterrupted(send, resends - 1, after))
        : Effect.failCause(cause)
  )

// Messages to a job's entity (actors/Job.ts) from the services: the entity answers with the API's own errors; the
// cluster's transport failures are defects here, as for the instance entity (InstanceCommandSender.ts).
import { Context, Effect, Layer } from "effect"
import type { ClusterError } from "effect/cluster"
import { JobEntity } from "../actors/Job.ts"

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

const isClusterFailure = (error: unknown): error is ClusterFailure =>
  typeof error === "object" && error !== null && "_tag" in error && clusterTags.has(String(error._tag))

/** A message's cluster failures (a full mailbox, storage, a shard in transit past its retries) become defects. */
export const clusterFailuresAsDefects = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, ClusterFailure>, R> =>
  Effect.catchIf(effect, isClusterFailure, Effect.die) as Effect.Effect<A, Exclude<E, ClusterFailure>, R>

export type JobClient = Effect.Success<typeof JobEntity.client>

/** The client of the job entities, made once. */
export class JobEntityClient extends Context.Service<JobEntityClient, JobClient>()("flowcore/JobEntityClient") {
  static readonly layer = Layer.effect(JobEntityClient, JobEntity.client)
}

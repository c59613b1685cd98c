// The client of the job entities (cluster/Job.ts), made once; sends go through EntitySend.sendToEntity.
import { Context, Effect, Layer } from "effect"
import { JobEntity } from "../../cluster/Job.ts"
import { type ClusterFailure, resendInterrupted, sendToEntity } from "../EntitySend.ts"
import { newId } from "../Ids.ts"

export type JobClient = Effect.Success<typeof JobEntity.client>

export class JobEntityClient extends Context.Service<JobEntityClient, JobClient>()("flowcore/JobEntityClient") {
  static readonly layer = Layer.effect(JobEntityClient, JobEntity.client)
}

/**
 * Sends a command to a job's entity with a command id made here, once: when its handling is interrupted on the
 * entity's side (the job's shard moved), it is sent again with the same id, and the entity applies it once.
 */
export const sendJobCommand = <A, E>(
  send: (commandId: string) => Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, ClusterFailure>> =>
  Effect.flatMap(newId, (commandId) => sendToEntity(resendInterrupted(send(commandId))))

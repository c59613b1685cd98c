// The client of the job entities (actors/Job.ts), made once; sends go through EntitySend.sendToEntity.
import { Context, Effect, Layer } from "effect"
import { JobEntity } from "../actors/Job.ts"

export type JobClient = Effect.Success<typeof JobEntity.client>

export class JobEntityClient extends Context.Service<JobEntityClient, JobClient>()("flowcore/JobEntityClient") {
  static readonly layer = Layer.effect(JobEntityClient, JobEntity.client)
}

// Starting instances at message and signal start events: one per start node of an ACTIVE deployment, each with an id
// derived from the delivery's key, so a re-delivered message or broadcast starts nothing twice. A start that fails
// (the deployment was suspended meanwhile, say) is skipped, not the whole delivery.
import { Effect } from "effect"
import type { Principal } from "../auth/Principal.ts"
import { derivedId } from "../engine/Execute.ts"
import type { ProcessInstancesShape } from "./ProcessInstances.ts"

export interface EventStart {
  readonly deployment_id: string
  readonly node_id: string
}

/** The ids of the instances started (or already started by an earlier delivery of the same key). */
export const startAtEventStarts = (
  instances: ProcessInstancesShape,
  principal: Principal,
  starts: ReadonlyArray<EventStart>,
  variables: Readonly<Record<string, unknown>>,
  deliveryKey: string,
  kind: "message-start" | "signal-start"
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.forEach(starts, (start) =>
    instances.start(
      principal,
      start.deployment_id,
      variables,
      start.node_id,
      derivedId(deliveryKey, `${kind}:${start.deployment_id}:${start.node_id}`)
    ).pipe(
      Effect.map((instance) => [instance.id]),
      Effect.catch(() => Effect.succeed([] as Array<string>))
    ), { concurrency: 16 }).pipe(Effect.map((ids) => ids.flat()))

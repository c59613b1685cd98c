// Delivering a message or a signal to the instances waiting for it: one command per waiting subscription, its id
// derived from the delivery's key and the subscription, so a re-delivered message or broadcast applies nothing twice.
import { Effect } from "effect"
import type { Principal } from "../../auth/Principal.ts"
import type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { forEachConcurrently } from "../Concurrently.ts"
import type { Delivery, ProcessInstancesShape } from "../instances/ProcessInstances.ts"

export interface WaitingSubscription {
  readonly instance_id: ProcessInstanceId
  readonly id: string
}

/** Each waiting subscription's instance, and whether the command was applied, held (suspended) or missed. */
export const deliverToWaiting = (
  instances: ProcessInstancesShape,
  principal: Principal,
  waiting: ReadonlyArray<WaitingSubscription>,
  commandFor: (subscriptionId: string) => InstanceCommand,
  deliveryKey: string
): Effect.Effect<ReadonlyArray<{ readonly instanceId: ProcessInstanceId; readonly delivery: Delivery }>> =>
  forEachConcurrently(waiting, (subscription) =>
    Effect.map(
      instances.deliver(
        principal,
        subscription.instance_id,
        commandFor(subscription.id),
        `${deliveryKey}:${subscription.id}`
      ),
      (delivery) => ({ instanceId: subscription.instance_id, delivery })
    ), 16)

// The ProcessInstance entity: the cluster's address of an instance, by which a command from another node reaches the
// node that owns the instance's shard. Its handler runs the command where this node runs all of an instance's
// commands: its copy in ResidentInstances (a command sent on the owning node itself goes there directly).
import { Duration, Effect, Layer } from "effect"
import { Entity } from "effect/cluster"
import { ProcessInstance } from "../cluster/ProcessInstance.ts"
import { ResidentInstances } from "../cluster/ResidentInstances.ts"
import { AppConfig } from "../config.ts"
import { InstanceHandlerServices, makeInstanceHandler } from "./InstanceHandler.ts"

const behaviour = Effect.gen(function*() {
  const instanceId = (yield* Entity.CurrentAddress).entityId
  const residents = yield* ResidentInstances
  return ProcessInstance.of({
    // Not capped: the cluster's own cap (MAX_RESIDENT_ENTITIES of its entities) applied to the message already.
    Execute: ({ payload }) =>
      residents.execute(instanceId, payload, false).pipe(Effect.catchTag("ResidentInstancesFull", Effect.die))
  })
})

/** This node serves its instances: handlers made with the node's services, held by ResidentInstances. */
const ServeResidents = Layer.effectDiscard(
  Effect.gen(function*() {
    const services = yield* InstanceHandlerServices
    const residents = yield* ResidentInstances
    yield* residents.serve((instanceId) => makeInstanceHandler(services, instanceId))
  })
)

/**
 * The entity, passivated after ENTITY_IDLE_SECONDS without a command (as the copies in ResidentInstances are): an
 * instance waiting for days holds no memory, and its next command loads it from its rows (one query).
 */
export const ProcessInstanceLive = Layer.merge(
  ServeResidents,
  Layer.unwrap(
    Effect.map(
      AppConfig,
      (config) => ProcessInstance.toLayer(behaviour, { maxIdleTime: Duration.seconds(config.entityIdleSeconds) })
    )
  )
)

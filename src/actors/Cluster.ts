// The cluster runtime (effect/cluster): one runner in this process, its shard and message storage in the service's
// own database. Entities (process instances, jobs, Play sessions) register on it; nothing may assume the entity it
// talks to lives in this process.
import { NodeCrypto } from "@effect/platform-node"
import { Context, Effect, Layer } from "effect"
import { Sharding, SingleRunner } from "effect/cluster"

export interface ClusterInfoShape {
  readonly mode: string
  readonly runnerStorage: string
  readonly status: Effect.Effect<"UP" | "DOWN">
  readonly activeEntities: Effect.Effect<number>
}

export class ClusterInfo extends Context.Service<ClusterInfo, ClusterInfoShape>()("flowcore/ClusterInfo") {}

const ClusterInfoLive = Layer.effect(
  ClusterInfo,
  Effect.gen(function*() {
    const sharding = yield* Sharding.Sharding
    return {
      mode: "single-runner",
      runnerStorage: "sql",
      status: Effect.map(sharding.isShutdown, (down) => (down ? "DOWN" : "UP")),
      activeEntities: sharding.activeEntityCount
    }
  })
)

export const ClusterLive = ClusterInfoLive.pipe(
  Layer.provideMerge(
    SingleRunner.layer({
      runnerStorage: "sql",
      // Persisted and delayed messages are picked up by polling; the default 10 s is far too slow for timers.
      shardingConfig: { entityMessagePollInterval: "500 millis" }
    })
  ),
  Layer.provide(NodeCrypto.layerDigest)
)

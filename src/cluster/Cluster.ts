// The cluster runtime (effect/cluster). Entities (process instances, Play sessions) are sharded over runners; shard
// locks, runner registrations and persisted messages live in the service's own database.
//  * `socket` (the default with DATABASE_URL): each node is a runner that the others reach over TCP at
//    RUNNER_HOST:RUNNER_PORT, so any node can send a command to any entity. On PostgreSQL the shard locks are session
//    advisory locks: a node killed with SIGKILL loses them the moment its connections close, and the survivors,
//    pinging each other every second and refreshing assignments twice a second, take its shards over in about a
//    second. A node that stops gracefully hands its shards over as it releases the layer.
//  * `single` (the embedded PGlite default): one runner in this process.
// Nothing may assume the entity it talks to lives in this process.
import { NodeClusterSocket, NodeCrypto } from "@effect/platform-node"
import { Context, Effect, Layer, Option, Schedule } from "effect"
import {
  RunnerAddress,
  RunnerHealth,
  Runners,
  RunnerStorage,
  Sharding,
  ShardingConfig,
  SingleRunner,
  SocketRunner,
  SqlMessageStorage,
  SqlRunnerStorage
} from "effect/cluster"
import { RpcSerialization } from "effect/rpc"
import { createServer } from "node:net"
import type { AppConfigShape } from "../config.ts"
import { ResidentInstances } from "./ResidentInstances.ts"

export interface ClusterInfoShape {
  readonly mode: string
  readonly runnerStorage: string
  /** host:port of this node's runner (socket mode). */
  readonly runnerAddress: string | undefined
  readonly status: Effect.Effect<"UP" | "DOWN">
  /** The cluster's entities resident here (jobs, Play sessions, instances addressed from other nodes) and the
   * process instances in memory (ResidentInstances). */
  readonly activeEntities: Effect.Effect<number>
  /**
   * Whether other runners may be up: false once the health watch has seen none besides this one (and always in
   * single mode). Until its first look, true.
   */
  readonly hasPeers: () => boolean
}

/** The other healthy runners the health watch saw at its last look (socket mode); undefined before its first. */
class Peers {
  count: number | undefined = undefined
}

export class ClusterInfo extends Context.Service<ClusterInfo, ClusterInfoShape>()("flowcore/ClusterInfo") {}

const clusterInfo = (mode: string, runnerAddress: string | undefined, peers: Peers | undefined) =>
  Layer.effect(
    ClusterInfo,
    Effect.gen(function*() {
      const sharding = yield* Sharding.Sharding
      const residents = yield* ResidentInstances
      return {
        mode,
        runnerStorage: "sql",
        runnerAddress,
        status: Effect.map(sharding.isShutdown, (down) => (down ? "DOWN" : "UP")),
        activeEntities: Effect.map(sharding.activeEntityCount, (count) => count + residents.count()),
        hasPeers: () => peers !== undefined && peers.count !== 0
      }
    })
  )

/** A free TCP port on the interface (RUNNER_PORT=0). */
const freePort = (host: string) =>
  Effect.callback<number, Error>((resume) => {
    const server = createServer()
    server.once("error", (error) => resume(Effect.fail(error)))
    server.listen(0, host, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })

// Persisted and delayed messages are picked up by polling; the default 10 s is far too slow for timers.
// A message to an entity in this process is handed over as it is: effect's default encodes and decodes every local
// message and reply through their schemas ("simulateRemoteSerialization"), a test aid that cost a good part of a
// command's CPU. Messages to other runners are still serialized, of course.
const commonFor = (config: AppConfigShape["cluster"]) =>
  ({
    entityMessagePollInterval: "500 millis",
    simulateRemoteSerialization: false,
    // effect's cap on resident entities (default 10,000): past it a message for an entity not in memory fails with
    // MailboxFull, which the senders retry for a moment (EntitySend.ts) before answering 503.
    maxResidentEntities: config.maxResidentEntities
  }) as const

// A runner is dead when three pings in a row go unanswered (each within a second, 200 ms apart): a killed node's
// port refuses at once, so its shards move within about a second. (effect's layerPing waits 5 × 500 ms.)
const quickPing = Layer.effect(
  RunnerHealth.RunnerHealth,
  Effect.gen(function*() {
    const runners = yield* Runners.Runners
    return RunnerHealth.RunnerHealth.of({
      isAlive: (address) =>
        runners.ping(address).pipe(
          Effect.timeout("1 second"),
          Effect.retry({ times: 2, schedule: Schedule.spaced("200 millis") }),
          Effect.isSuccess
        )
    })
  })
).pipe(Layer.provide(Runners.layerRpc), Layer.provide(NodeClusterSocket.layerClientProtocol))

// Every node watches every other one. (effect's own health check is a cluster singleton: when the node that runs it
// is the one that dies, nobody notices until the dead runner's heartbeat expires — several seconds.) Marking a
// runner unhealthy makes every survivor drop it from the shard assignment at its next refresh. Each look also counts
// the other runners (ClusterInfo.hasPeers): a node alone has no one to tell about new jobs.
const healthWatch = (peers: Peers) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const storage = yield* RunnerStorage.RunnerStorage
      const health = yield* RunnerHealth.RunnerHealth
      const config = yield* ShardingConfig.ShardingConfig
      const self = Option.map(config.runnerAddress, (address) => `${address.host}:${address.port}`)
      const round = Effect.gen(function*() {
        const runners = yield* storage.getRunners
        const others = runners.filter(([runner, healthy]) =>
          healthy && Option.getOrUndefined(self) !== `${runner.address.host}:${runner.address.port}`
        )
        peers.count = others.length
        yield* Effect.forEach(
          others,
          ([runner]) =>
            Effect.flatMap(health.isAlive(runner.address), (alive) =>
              alive ? Effect.void : Effect.andThen(
                Effect.logWarning(
                  `runner ${runner.address.host}:${runner.address.port} does not answer: its shards move to the others`
                ),
                storage.setRunnerHealth(runner.address, false)
              )),
          { concurrency: 8, discard: true }
        )
      }).pipe(Effect.catchCause((cause) => Effect.logDebug("runner health watch failed", cause)))
      yield* Effect.forkScoped(Effect.repeat(round, Schedule.spaced("250 millis")))
    })
  )

/** NodeClusterSocket.layer's composition (TCP transport, SQL storage), with the quicker health check and its watch. */
const socketSharding = (shardingConfig: Partial<ShardingConfig.ShardingConfig["Service"]>, peers: Peers) =>
  Layer.merge(SocketRunner.layer, healthWatch(peers)).pipe(
    Layer.provide([NodeClusterSocket.layerSocketServer, NodeClusterSocket.layerClientProtocol]),
    Layer.provideMerge(quickPing),
    Layer.provideMerge(SqlMessageStorage.layer.pipe(Layer.provide(NodeCrypto.layerDigest))),
    Layer.provideMerge(Layer.orDie(SqlRunnerStorage.layer)),
    Layer.provide(ShardingConfig.layerFromEnv(shardingConfig)),
    Layer.provide(RpcSerialization.layerSchemaBinary())
  )

const singleRunner = (config: AppConfigShape["cluster"]) =>
  SingleRunner.layer({ runnerStorage: "sql", shardingConfig: commonFor(config) }).pipe(
    Layer.provide(NodeCrypto.layerDigest)
  )

const socketRunners = (config: AppConfigShape["cluster"]) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const port = config.runnerPort !== 0 ? config.runnerPort : yield* Effect.orDie(freePort(config.runnerListenHost))
      const address = `${config.runnerHost}:${port}`
      const peers = new Peers()
      const sharding = socketSharding({
        ...commonFor(config),
        runnerAddress: Option.some(RunnerAddress.make(config.runnerHost, port)),
        runnerListenAddress: Option.some(RunnerAddress.make(config.runnerListenHost, port)),
        shardsPerGroup: config.shards,
        // Fast failover: notice a dead runner within about a second (ping), pick up freed shards at once.
        runnerHealthCheckInterval: "1 second",
        refreshAssignmentsInterval: "250 millis",
        sendRetryInterval: "50 millis",
        shardLockRefreshInterval: "2 seconds",
        shardLockExpiration: "6 seconds",
        entityTerminationTimeout: "5 seconds"
      }, peers)
      return clusterInfo(`socket runner ${address}`, address, peers).pipe(
        Layer.provideMerge(ResidentInstances.layer),
        Layer.provideMerge(Layer.orDie(sharding))
      )
    })
  )

export const ClusterLive = (config: AppConfigShape["cluster"]) =>
  config.mode === "socket"
    ? socketRunners(config)
    : clusterInfo("single-runner", undefined, undefined).pipe(
      Layer.provideMerge(ResidentInstances.layer),
      Layer.provideMerge(singleRunner(config))
    )

// npm run bench:entities — what one message to a cluster entity costs in this process (effect/cluster, a single
// runner, local messages not serialized, as the service runs them): to an entity already in memory, and to a new one
// (spawned by the message: a job's lease always is). The handler does nothing, so this is the machinery's own price,
// the floor under every instance command and every job message. Prints µs of wall time and of CPU per message.
//   N=20000 NEW=5000 npm run bench:entities
import { NodeCrypto } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { Entity, SingleRunner } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { AppConfig } from "../src/config.ts"
import { DatabaseLive } from "../src/persistence/database/Database.ts"
import { testConfig } from "../test/support/TestApp.ts"

const N = Number(process.env["N"] ?? 20_000)
const NEW = Number(process.env["NEW"] ?? 5_000)

const Ping = Rpc.make("Ping", { payload: { n: Schema.Number }, success: Schema.Number })
const Pinged = Entity.make("Pinged", [Ping])
const PingedLive = Pinged.toLayer(Effect.succeed(Pinged.of({ Ping: ({ payload }) => Effect.succeed(payload.n) })), {
  maxIdleTime: "2 seconds"
})

const timed = <E>(label: string, count: number, run: Effect.Effect<unknown, E>) =>
  Effect.gen(function*() {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    yield* run
    const cpu = process.cpuUsage(cpu0)
    const wall = ((performance.now() - t0) * 1000) / count
    console.log(`| ${label} | ${wall.toFixed(1)} | ${((cpu.user + cpu.system) / count).toFixed(1)} |`)
  })

const program = Effect.gen(function*() {
  const client = yield* Pinged.client
  yield* Effect.forEach(Array.from({ length: 2_000 }), (_, i) => client("warm").Ping({ n: i }), { discard: true })
  console.log("| message | µs wall | µs CPU |\n|---|---|---|")
  yield* timed(
    "to a resident entity, one at a time",
    N,
    Effect.forEach(Array.from({ length: N }), (_, i) => client("resident").Ping({ n: i }), { discard: true })
  )
  yield* timed(
    "to a new entity each, 32 in flight",
    NEW,
    Effect.forEach(Array.from({ length: NEW }), (_, i) => client(`new-${i}`).Ping({ n: i }), {
      concurrency: 32,
      discard: true
    })
  )
})

// The runner keeps nothing in storage ("memory"); the SQL client it asks for is the embedded one, unused.
await program.pipe(
  Effect.provide(PingedLive),
  Effect.provide(
    SingleRunner.layer({ runnerStorage: "memory", shardingConfig: { simulateRemoteSerialization: false } })
  ),
  Effect.provide(NodeCrypto.layerDigest),
  Effect.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined })))),
  Effect.runPromise
)

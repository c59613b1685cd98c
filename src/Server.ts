// The service process (main.ts loads it): runs the service with the configuration from the environment, and stops it gracefully: on SIGTERM or
// SIGINT the node drains (health 503 at once, no new connections, requests in flight finish within
// SHUTDOWN_GRACE_MS), then the layers are released (cluster, database) and the process exits 0. A second signal stops
// at once.
import { Cause, Effect, Exit, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { setFlagsFromString } from "node:v8"
import { loggingLayer, makeApp } from "./App.ts"
import { ConfigError, configFromEnv } from "./config.ts"
import { NodeLifecycleState } from "./http/NodeLifecycle.ts"

const startedAt = performance.now()
let config
try {
  config = configFromEnv()
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`)
    process.exit(2)
  }
  throw error
}

// The heap's growth past its live objects (HEAP_GROWTH_PERCENT): V8 reads the flag at each full collection.
if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`)

const announce = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  const where = "port" in address ? `${config.host}:${address.port}` : "a unix socket"
  yield* Effect.logInfo(
    `flowcore listening on ${where} (database: ${
      config.databaseUrl === undefined ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL"
    }) ` +
      `ready in ${Math.round(performance.now())} ms (modules loaded in ${Math.round(startedAt)} ms), RSS ${
        Math.round(process.memoryUsage().rss / 1048576)
      } MB`
  )
})

// A requested stop ends in interruption: that is a clean exit (0), not a failure.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

const lifecycle = new NodeLifecycleState()

const runMainGracefully = Runtime.makeRunMain(({ fiber, teardown }) => {
  let signalled = false
  const stop = () => fiber.interruptUnsafe(fiber.id)
  const onSignal = () => {
    if (signalled) return stop()
    signalled = true
    console.log(`level=INFO message="stopping: draining ${lifecycle.inFlight} request(s) in flight"`)
    void lifecycle.drain(config.shutdownGraceMillis).then(() => {
      stop()
      // Releasing the layers is bounded too: a stuck finalizer must not keep a stopped node alive.
      setTimeout(() => process.exit(0), 5_000).unref()
    })
  }
  fiber.addObserver((exit) => {
    process.removeListener("SIGINT", onSignal)
    process.removeListener("SIGTERM", onSignal)
    teardown(exit, (code) => {
      if (signalled) console.log(`level=INFO message="stopped (exit ${code})"`)
      process.exit(code)
    })
  })
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
})

Layer.launch(
  Layer.effectDiscard(announce).pipe(
    Layer.provideMerge(makeApp(config, { lifecycle })),
    Layer.provide(loggingLayer(config))
  )
).pipe(runMainGracefully({ teardown }))

// `npm start`: runs the service with the configuration from the environment.
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { loggingLayer, makeApp } from "./App.ts"
import { ConfigError, configFromEnv } from "./config.ts"

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

const announce = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address
  const where = "port" in address ? `${config.host}:${address.port}` : "a unix socket"
  yield* Effect.logInfo(
    `flowcore listening on ${where} (database: ${config.databaseUrl === undefined ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL"}) ` +
      `ready in ${Math.round(performance.now() - startedAt)} ms, RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`
  )
})

// SIGTERM / SIGINT interrupt the program: that is a requested, clean stop (exit 0), not a failure.
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Layer.launch(Layer.effectDiscard(announce).pipe(Layer.provideMerge(makeApp(config)), Layer.provide(loggingLayer(config)))).pipe(NodeRuntime.runMain({ teardown }))

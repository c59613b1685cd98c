// sendToEntity (src/services/EntitySend.ts): an entity's handler sees none of the sender's services (an HTTP request's,
// when the message is sent from a handler), but its span still belongs to the sender's trace.
import { NodeCrypto } from "@effect/platform-node"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { Entity, SingleRunner } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/Database.ts"
import { sendToEntity } from "../../src/services/EntitySend.ts"
import { testConfig } from "../support/TestApp.ts"

/** Stands for what a request provides (its principal, its state): present in the sender, not wanted in the entity. */
class RequestOnly extends Context.Service<RequestOnly, { readonly who: string }>()("test/RequestOnly") {}

const Seen = Schema.Struct({ requestOnly: Schema.Boolean, traceId: Schema.NullOr(Schema.String) })
const Look = Rpc.make("Look", { success: Seen })
const Looker = Entity.make("TestLooker", [Look])

// What the entity's handler finds in its context.
const look = Effect.gen(function*() {
  const span = yield* Effect.option(Effect.currentParentSpan)
  return {
    requestOnly: Option.isSome(yield* Effect.serviceOption(RequestOnly)),
    traceId: Option.isSome(span) ? span.value.traceId : null
  }
})
const LookerLive = Looker.toLayer(
  Effect.succeed(Looker.of({ Look: () => look }))
)

const runner = LookerLive.pipe(
  Layer.provideMerge(
    SingleRunner.layer({ runnerStorage: "memory", shardingConfig: { simulateRemoteSerialization: false } })
  ),
  Layer.provide(NodeCrypto.layerDigest),
  // The runner asks for a SQL client even with its storage in memory: the embedded one, unused.
  Layer.provide(Layer.provide(DatabaseLive, Layer.succeed(AppConfig, testConfig({ databaseUrl: undefined }))))
)

describe("sendToEntity", () => {
  it("hands the message over without the sender's services, within the sender's trace", async () => {
    const seen = await Effect.gen(function*() {
      const client = yield* Looker.client
      return yield* Effect.gen(function*() {
        const request = yield* Effect.currentSpan
        const seen = yield* sendToEntity(client("first").Look())
        return { ...seen, requestTrace: request.traceId }
      }).pipe(
        Effect.provideService(RequestOnly, { who: "a request" }),
        Effect.withSpan("the request")
      )
    }).pipe(Effect.provide(runner), Effect.scoped, Effect.runPromise)
    expect(seen.requestOnly).toBe(false)
    // The handler's span belongs to the sender's trace (through the message's envelope).
    expect(seen.traceId).toBe(seen.requestTrace)
  })
})

// sendToEntity (src/services/EntitySend.ts): an entity's handler sees none of the sender's services (an HTTP request's,
// when the message is sent from a handler), but its span still belongs to the sender's trace. resendInterrupted: a
// message whose handling the entity's side interrupted (its shard released under it) is sent again; one whose sender
// was interrupted is not; a job's command is sent again with the same command id (sendJobCommand).
import { NodeCrypto } from "@effect/platform-node"
import { Cause, Context, Duration, Effect, Exit, Fiber, Layer, Option, Schema } from "effect"
import { Entity, SingleRunner } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { resendInterrupted, sendToEntity } from "../../src/services/EntitySend.ts"
import { sendJobCommand } from "../../src/services/work/JobEntityClient.ts"
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

// Its handler is interrupted (as by a shard released under it) while `interruptions` lasts, then answers the count of
// messages it was sent.
const Count = Rpc.make("Count", { success: Schema.Number })
const Flaky = Entity.make("TestFlaky", [Count])
let interruptions = 0
let handled = 0
const FlakyLive = Flaky.toLayer(
  Effect.succeed(Flaky.of({
    Count: () =>
      Effect.suspend(() => {
        handled++
        if (interruptions === 0) return Effect.succeed(handled)
        interruptions--
        return Effect.interrupt
      })
  }))
)

const runner = Layer.merge(LookerLive, FlakyLive).pipe(
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

  const withClient = <A, E>(f: (client: Effect.Success<typeof Flaky.client>) => Effect.Effect<A, E>) =>
    Effect.flatMap(Flaky.client, f).pipe(Effect.provide(runner), Effect.scoped, Effect.runPromiseExit)

  it("sends again a message whose handling the entity's side interrupted, until it is answered", async () => {
    interruptions = 2
    handled = 0
    const exit = await withClient((client) =>
      sendToEntity(resendInterrupted(client("a").Count(), 5, Duration.millis(1)))
    )
    expect(exit).toEqual(Exit.succeed(3))
  })

  it("gives up after its resends: the interruption stands", async () => {
    interruptions = 10
    handled = 0
    const exit = await withClient((client) => resendInterrupted(client("b").Count(), 2, Duration.millis(1)))
    expect(Exit.hasInterrupts(exit)).toBe(true)
    expect(handled).toBe(3)
  })

  it("does not send again when the sender itself is interrupted", async () => {
    interruptions = 0
    handled = 0
    let sends = 0
    const exit = await Effect.runPromiseExit(Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(
        resendInterrupted(Effect.suspend(() => (sends++, Effect.never)), 5, Duration.millis(1))
      )
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      return yield* Fiber.await(fiber)
    }))
    expect(Exit.isSuccess(exit) && Exit.hasInterrupts(exit.value)).toBe(true)
    expect(sends).toBe(1)
  })

  it("sends a job's command again with the command id of its first send", async () => {
    const ids: Array<string> = []
    const answer = await Effect.runPromise(sendJobCommand((commandId) =>
      Effect.suspend(() => {
        ids.push(commandId)
        return ids.length < 3 ? Effect.failCause(Cause.interrupt()) : Effect.succeed("applied")
      })
    ))
    expect(answer).toBe("applied")
    expect(ids).toHaveLength(3)
    expect(new Set(ids).size).toBe(1)
  })
})

// Play sessions as the API sees them: the draft (BPMN XML or a JSON graph) is compiled exactly as a deployment would
// be — but not deployed — and handed to a new PlaySession entity, which keeps it in memory.
import { Context, Effect, Layer } from "effect"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { type PlayRejected, PlaySession } from "../../cluster/PlaySession.ts"
import { type ClientError, conflict, notFound, runBudgetExceeded, validationError } from "../../schema/ApiErrors.ts"
import type { PlaySessionView, PlayStepRequest, StartPlaySession } from "../../schema/Play.ts"
import type { PlaySessionId } from "../../schema/ResourceIds.ts"
import { ProcessModels } from "../deployments/ProcessModels.ts"
import { newId } from "../Ids.ts"

/** For the request's tenant (CurrentTenant). */
export interface PlaySessionsShape {
  readonly start: (input: typeof StartPlaySession.Type) => Effect.Effect<PlaySessionView, ClientError, CurrentTenant>
  readonly step: (
    id: PlaySessionId,
    step: typeof PlayStepRequest.Type
  ) => Effect.Effect<PlaySessionView, ClientError, CurrentTenant>
  readonly get: (id: PlaySessionId) => Effect.Effect<PlaySessionView, ClientError, CurrentTenant>
}

export class PlaySessions extends Context.Service<PlaySessions, PlaySessionsShape>()("flowcore/PlaySessions") {
  static readonly layer = Layer.effect(
    PlaySessions,
    Effect.gen(function*() {
      const models = yield* ProcessModels
      const client = yield* PlaySession.client

      const failure = (id: string) => (rejected: PlayRejected): ClientError => {
        if (rejected.reason === "NOT_FOUND") return notFound("play session", id)
        if (rejected.reason === "INVALID_ARGUMENT") {
          const field = /^(\w+): /.exec(rejected.message)?.[1]
          return field === undefined
            ? validationError("step", rejected.message)
            : validationError(field, rejected.message.slice(field.length + 2))
        }
        if (rejected.reason === "UNPROCESSABLE") return runBudgetExceeded(rejected.message)
        return conflict(rejected.message)
      }
      const call = <A>(id: string, effect: Effect.Effect<A, PlayRejected | { readonly _tag: string }>) =>
        effect.pipe(
          Effect.catch((error) =>
            (error as { _tag: string })._tag === "PlayRejected"
              ? Effect.fail(failure(id)(error as PlayRejected))
              : Effect.die(error)
          )
        )

      return {
        start: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          if ((input.xml === undefined) === (input.graph === undefined)) {
            return yield* validationError("xml", "give the draft as xml or as graph")
          }
          const model = input.xml !== undefined
            ? yield* models.fromXml(input.xml)
            : yield* models.fromJson(input.graph)
          const id = yield* newId
          return yield* call(
            id,
            client(id).Start({
              tenantId,
              processKey: model.key,
              graph: model.graph,
              variables: input.variables ?? {},
              mocks: input.mocks ?? {},
              chooseFlows: input.chooseFlows ?? {}
            })
          )
        }),
        step: (id, step) => Effect.flatMap(CurrentTenant, (tenantId) => call(id, client(id).Step({ tenantId, step }))),
        get: (id) => Effect.flatMap(CurrentTenant, (tenantId) => call(id, client(id).Get({ tenantId })))
      }
    })
  )
}

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { PlaySessions } from "../../services/modeling/PlaySessions.ts"
import { Api } from "../Api.ts"

export const PlayHandlers = HttpApiBuilder.group(
  Api,
  "play",
  Effect.fnUntraced(function*(handlers) {
    const sessions = yield* PlaySessions
    return handlers
      .handle("start", ({ payload }) => sessions.start(payload))
      .handle("step", ({ params, payload }) => sessions.step(params.id, payload))
      .handle("get", ({ params }) => sessions.get(params.id))
  })
)

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { PlaySessions } from "../../services/PlaySessions.ts"
import { Api } from "../Api.ts"

export const PlayHandlers = HttpApiBuilder.group(Api, "play", (handlers) =>
  Effect.gen(function*() {
    const sessions = yield* PlaySessions
    return handlers
      .handle("start", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => sessions.start(principal.tenantId, payload)))
      .handle("step", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          sessions.step(principal.tenantId, params.id, payload)))
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          sessions.get(principal.tenantId, params.id)))
  }))

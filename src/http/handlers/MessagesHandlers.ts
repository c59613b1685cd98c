import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { ConditionalStarts } from "../../services/events/ConditionalStarts.ts"
import { Messages } from "../../services/events/Messages.ts"
import { Signals } from "../../services/events/Signals.ts"
import { Api } from "../Api.ts"
import { idempotently } from "../Idempotency.ts"

export const MessagesHandlers = HttpApiBuilder.group(
  Api,
  "messages",
  Effect.fnUntraced(function*(handlers) {
    const messages = yield* Messages
    return handlers.handle(
      "publish",
      ({ payload, headers }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          idempotently(
            principal,
            headers["idempotency-key"],
            "POST /messages",
            payload,
            messages.publish(principal, payload)
          ))
    )
  })
)

export const SignalsHandlers = HttpApiBuilder.group(
  Api,
  "signals",
  Effect.fnUntraced(function*(handlers) {
    const signals = yield* Signals
    return handlers.handle(
      "broadcast",
      ({ payload, headers }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          idempotently(
            principal,
            headers["idempotency-key"],
            "POST /signals",
            payload,
            signals.broadcast(principal, payload)
          ))
    )
  })
)

export const ConditionalStartsHandlers = HttpApiBuilder.group(
  Api,
  "conditionalStarts",
  Effect.fnUntraced(function*(handlers) {
    const conditionalStarts = yield* ConditionalStarts
    return handlers.handle(
      "evaluate",
      ({ payload }) => Effect.flatMap(CurrentPrincipal, (principal) => conditionalStarts.evaluate(principal, payload))
    )
  })
)

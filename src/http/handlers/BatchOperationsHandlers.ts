import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { BatchOperations } from "../../services/BatchOperations.ts"
import { Api } from "../Api.ts"

export const BatchOperationsHandlers = HttpApiBuilder.group(
  Api,
  "batchOperations",
  (handlers) =>
    Effect.gen(function*() {
      const batches = yield* BatchOperations
      return handlers
        .handle(
          "create",
          ({ payload }) => Effect.flatMap(CurrentPrincipal, (principal) => batches.create(principal, payload))
        )
        .handle(
          "get",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => batches.get(principal.tenantId, params.id))
        )
    })
)

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BatchOperations } from "../../services/instances/BatchOperations.ts"
import { Api } from "../Api.ts"

export const BatchOperationsHandlers = HttpApiBuilder.group(
  Api,
  "batchOperations",
  Effect.fnUntraced(function*(handlers) {
    const batches = yield* BatchOperations
    return handlers
      .handle("create", ({ payload }) => batches.create(payload))
      .handle("get", ({ params }) => batches.get(params.id))
  })
)

import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import { BatchOperation, CreateBatchOperation } from "../../schema/BatchOperations.ts"
import { Accepted } from "../../schema/Envelope.ts"
import { BatchOperationId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"

export class BatchOperationsApi extends HttpApiGroup.make("batchOperations")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CreateBatchOperation,
      success: Accepted(BatchOperation, "Batch accepted"),
      error: [NotFoundHttp, ValidationErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Start a CANCEL, RETRY, RESOLVE_INCIDENT, MIGRATE or SET_VARIABLES batch over targetIds or what a filter selects now",
      description:
        "Answers 202 with the batch (state ACTIVE, items PENDING); it runs in the background, survives restarts, and applies " +
        "each item once. At most 10,000 targets. Each item ends SUCCEEDED or FAILED with the reason (an unknown id, a finished instance, ...)."
    })),
    itemById(
      BatchOperationId,
      BatchOperation,
      Requires.anyRole,
      "Progress (pending / succeeded / failed) and each item's outcome; COMPLETED when nothing is pending"
    )
  )
  .pipe(authenticatedGroup("/api/v1/batch-operations", "Batch operations"))
{}

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { validationError } from "../../schema/ApiErrors.ts"
import { ProcessModels } from "../../services/deployments/ProcessModels.ts"
import { Api } from "../Api.ts"

export const AnalysisHandlers = HttpApiBuilder.group(
  Api,
  "analysis",
  Effect.fnUntraced(function*(handlers) {
    const models = yield* ProcessModels
    return handlers.handle(
      "variables",
      Effect.fnUntraced(function*({ payload }) {
        if ((payload.xml === undefined) === (payload.graph === undefined)) {
          return yield* validationError("xml", "give the model as xml or as graph")
        }
        const model = payload.xml !== undefined
          ? yield* models.fromXml(payload.xml)
          : yield* models.fromJson(payload.graph)
        return models.analyseVariables(model.graph)
      })
    )
  })
)

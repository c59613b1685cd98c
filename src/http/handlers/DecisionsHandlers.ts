import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { DecisionEngine } from "../../services/decisions/DecisionEngine.ts"
import { Decisions } from "../../services/decisions/Decisions.ts"
import { Api } from "../Api.ts"

export const DecisionsHandlers = HttpApiBuilder.group(
  Api,
  "decisions",
  Effect.fnUntraced(function*(handlers) {
    const decisions = yield* Decisions
    return handlers
      .handle("list", ({ query }) => decisions.list({ key: query.key }, pageRequest(query)))
      .handle(
        "deploy",
        Effect.fnUntraced(function*({ payload }) {
          const decision = yield* decisions.deployTable(payload)
          yield* recordResource("decisions", decision.id)
          return decision
        })
      )
      .handle(
        "import",
        Effect.fnUntraced(function*({ payload }) {
          const model = yield* decisions.importXml(payload)
          yield* recordResource("decision-models", model.id)
          return model
        })
      )
      .handle(
        "get",
        Effect.fnUntraced(function*({ params }) {
          const found = yield* decisions.get(params.id)
          return {
            ...found.decision,
            requiredDecisions: found.requiredDecisions,
            requiredInputs: found.requiredInputs,
            table: found.table
          }
        })
      )
      .handle("xml", ({ params }) => Effect.map(decisions.xmlOf(params.id), (xml) => ({ id: params.id, xml })))
      .handle("evaluate", ({ params, payload, query }) =>
        Effect.map(
          decisions.evaluate(params.id, payload.variables ?? {}, {
            trace: false,
            typed: query.typed === "true"
          }),
          ({ trace: _, ...result }) => result
        ))
      .handle(
        "evaluateWithTrace",
        ({ params, payload, query }) =>
          decisions.evaluate(params.id, payload.variables ?? {}, {
            trace: true,
            typed: query.typed === "true"
          })
      )
  })
)

export const DecisionModelsHandlers = HttpApiBuilder.group(
  Api,
  "decisionModels",
  Effect.fnUntraced(function*(handlers) {
    const decisions = yield* Decisions
    return handlers
      .handle("list", ({ query }) => decisions.listModels(pageRequest(query)))
      .handle("get", ({ params }) => decisions.getModel(params.id))
      .handle("xml", ({ params }) => Effect.map(decisions.modelXml(params.id), (xml) => ({ id: params.id, xml })))
      .handle(
        "evaluateDecision",
        ({ params, payload, query }) =>
          decisions.evaluateInModel(params.id, params.decisionId, payload.variables ?? {}, {
            typed: query.typed === "true"
          })
      )
      .handle(
        "evaluateService",
        ({ params, payload, query }) =>
          decisions.evaluateService(params.id, params.serviceId, payload.variables ?? {}, {
            typed: query.typed === "true"
          })
      )
  })
)

export const FeelHandlers = HttpApiBuilder.group(
  Api,
  "feel",
  Effect.fnUntraced(function*(handlers) {
    const engine = yield* DecisionEngine
    return handlers
      .handle(
        "evaluate",
        ({ payload }) => Effect.map(engine.feel(payload.expression, payload.context ?? {}), (result) => ({ result }))
      )
      .handle("functions", () => Effect.succeed(engine.functions))
  })
)

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { DecisionEngine } from "../../services/DecisionEngine.ts"
import { Decisions } from "../../services/Decisions.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const DecisionsHandlers = HttpApiBuilder.group(Api, "decisions", (handlers) =>
  Effect.gen(function*() {
    const decisions = yield* Decisions
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.list(principal.tenantId, { key: query.key }, pageRequest(query))))
      .handle("deploy", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const decision = yield* decisions.deployTable(principal.tenantId, principal.sub, payload)
          yield* recordResource("decisions", decision.id)
          return decision
        }))
      .handle("import", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const model = yield* decisions.importXml(principal.tenantId, principal.sub, payload)
          yield* recordResource("decision-models", model.id)
          return model
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const found = yield* decisions.get(principal.tenantId, params.id)
          return {
            ...found.decision,
            requiredDecisions: found.requiredDecisions,
            requiredInputs: found.requiredInputs,
            table: found.table
          }
        }))
      .handle("xml", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.map(decisions.xmlOf(principal.tenantId, params.id), (xml) => ({ id: params.id, xml }))))
      .handle("evaluate", ({ params, payload, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.map(
            decisions.evaluate(principal.tenantId, params.id, payload.variables ?? {}, {
              trace: false,
              typed: query.typed === "true"
            }),
            ({ trace: _, ...result }) =>
              result
          )))
      .handle("evaluateWithTrace", ({ params, payload, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.evaluate(principal.tenantId, params.id, payload.variables ?? {}, {
            trace: true,
            typed: query.typed === "true"
          })))
  }))

export const DecisionModelsHandlers = HttpApiBuilder.group(Api, "decisionModels", (handlers) =>
  Effect.gen(function*() {
    const decisions = yield* Decisions
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.listModels(principal.tenantId, pageRequest(query))))
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.getModel(principal.tenantId, params.id)))
      .handle("xml", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.map(decisions.modelXml(principal.tenantId, params.id), (xml) => ({ id: params.id, xml }))))
      .handle("evaluateDecision", ({ params, payload, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.evaluateInModel(principal.tenantId, params.id, params.decisionId, payload.variables ?? {}, {
            typed: query.typed === "true"
          })))
      .handle("evaluateService", ({ params, payload, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          decisions.evaluateService(principal.tenantId, params.id, params.serviceId, payload.variables ?? {}, {
            typed: query.typed === "true"
          })))
  }))

export const FeelHandlers = HttpApiBuilder.group(Api, "feel", (handlers) =>
  Effect.gen(function*() {
    const engine = yield* DecisionEngine
    return handlers
      .handle("evaluate", ({ payload }) =>
        Effect.map(engine.feel(payload.expression, payload.context ?? {}), (result) => ({ result })))
      .handle("functions", () =>
        Effect.succeed(engine.functions))
  }))

import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Deployments } from "../../services/Deployments.ts"
import { ProcessEngine } from "../../services/ProcessEngine.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const DeploymentsHandlers = HttpApiBuilder.group(Api, "deployments", (handlers) =>
  Effect.gen(function*() {
    const deployments = yield* Deployments
    const engine = yield* ProcessEngine
    return handlers
      .handle("deploy", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const source = typeof payload === "string"
            ? { format: "BPMN_XML" as const, xml: payload }
            : { format: "JSON_GRAPH" as const, graph: payload }
          const deployment = yield* deployments.deploy(principal.tenantId, principal.sub, source)
          yield* recordResource("deployments", deployment.id)
          return deployment
        }))
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.list(principal.tenantId, { key: query.key }, pageRequest(query))))
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.get(principal.tenantId, params.id)))
      .handle("remove", ({ params, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.remove(principal.tenantId, params.id, query.includeFinishedInstances === "true")))
      .handle("suspend", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.setState(principal.tenantId, params.id, "SUSPENDED")))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.setState(principal.tenantId, params.id, "ACTIVE")))
      .handle("simulate", ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const { graph } = yield* deployments.graphOf(principal.tenantId, params.id)
          const report = engine.simulate(graph, {
            runs: payload.runs ?? 100,
            variables: payload.variables ?? {},
            variableSets: payload.variableSets ?? [],
            results: payload.results ?? {},
            events: payload.events ?? [],
            maxStepsPerRun: payload.maxStepsPerRun ?? 1000
          }, () =>
            performance.now())
          return { deploymentId: params.id, ...report }
        }))
      .handle("nodes", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.nodes(principal.tenantId, params.id)))
  }))

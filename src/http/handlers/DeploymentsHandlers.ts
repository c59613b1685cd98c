import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Deployments } from "../../services/Deployments.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const DeploymentsHandlers = HttpApiBuilder.group(Api, "deployments", (handlers) =>
  Effect.gen(function*() {
    const deployments = yield* Deployments
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
        Effect.flatMap(CurrentPrincipal, (principal) => deployments.list(principal.tenantId, { key: query.key }, pageRequest(query))))
      .handle("get", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => deployments.get(principal.tenantId, params.id)))
      .handle("remove", ({ params, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.remove(principal.tenantId, params.id, query.includeFinishedInstances === "true")))
      .handle("suspend", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => deployments.setState(principal.tenantId, params.id, "SUSPENDED")))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => deployments.setState(principal.tenantId, params.id, "ACTIVE")))
      .handle("nodes", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => deployments.nodes(principal.tenantId, params.id)))
  }))

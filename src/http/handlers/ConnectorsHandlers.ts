import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { Connections } from "../../services/Connections.ts"
import { CONNECTOR_TYPES } from "../../services/ConnectorCatalog.ts"
import { Api } from "../Api.ts"

export const ConnectorsHandlers = HttpApiBuilder.group(
  Api,
  "connectors",
  (handlers) => Effect.succeed(handlers.handle("list", () => Effect.succeed(CONNECTOR_TYPES)))
)

export const ConnectionsHandlers = HttpApiBuilder.group(Api, "connections", (handlers) =>
  Effect.gen(function*() {
    const connections = yield* Connections
    const tenant = Effect.map(CurrentPrincipal, (principal) => principal.tenantId)
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(tenant, (tenantId) =>
          connections.list(tenantId, {
            connectorType: query.connectorType,
            enabled: query.enabled === undefined ? undefined : query.enabled === "true"
          }, pageRequest(query))))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          connections.create(principal.tenantId, principal.sub, payload)))
      .handle("get", ({ params }) =>
        Effect.flatMap(tenant, (tenantId) => connections.get(tenantId, params.id)))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(tenant, (tenantId) =>
          connections.update(tenantId, params.id, payload)))
      .handle("remove", ({ params }) =>
        Effect.flatMap(tenant, (tenantId) => connections.remove(tenantId, params.id)))
      .handle("enable", ({ params }) =>
        Effect.flatMap(tenant, (tenantId) =>
          connections.setEnabled(tenantId, params.id, true)))
      .handle("disable", ({ params }) =>
        Effect.flatMap(tenant, (tenantId) =>
          connections.setEnabled(tenantId, params.id, false)))
      .handle("test", ({ params }) =>
        Effect.flatMap(tenant, (tenantId) =>
          connections.test(tenantId, params.id)))
  }))

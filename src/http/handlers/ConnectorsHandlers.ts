import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { pageRequest } from "../../schema/Common.ts"
import { Connections } from "../../services/connectors/Connections.ts"
import { CONNECTOR_TYPES } from "../../services/connectors/ConnectorCatalog.ts"
import { Api } from "../Api.ts"

export const ConnectorsHandlers = HttpApiBuilder.group(
  Api,
  "connectors",
  (handlers) => Effect.succeed(handlers.handle("list", () => Effect.succeed(CONNECTOR_TYPES)))
)

export const ConnectionsHandlers = HttpApiBuilder.group(
  Api,
  "connections",
  Effect.fnUntraced(function*(handlers) {
    const connections = yield* Connections
    return handlers
      .handle("list", ({ query }) =>
        connections.list({
          connectorType: query.connectorType,
          enabled: query.enabled === undefined ? undefined : query.enabled === "true"
        }, pageRequest(query)))
      .handle("create", ({ payload }) => connections.create(payload))
      .handle("get", ({ params }) => connections.get(params.id))
      .handle("update", ({ params, payload }) => connections.update(params.id, payload))
      .handle("remove", ({ params }) => connections.remove(params.id))
      .handle("enable", ({ params }) => connections.setEnabled(params.id, true))
      .handle("disable", ({ params }) => connections.setEnabled(params.id, false))
      .handle("test", ({ params }) => connections.test(params.id))
  })
)

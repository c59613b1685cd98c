import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConflictHttp, NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import {
  Connection,
  ConnectionQuery,
  ConnectionTest,
  Connector,
  CreateConnection,
  UpdateConnection
} from "../../schema/Connectors.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { ConnectionId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"
import { writesOn } from "./WritesOn.ts"

export class ConnectorsApi extends HttpApiGroup.make("connectors")
  .add(
    HttpApiEndpoint.get("list", "/", { success: Ok(Schema.Array(Connector)) }).annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Connector types of this installation: what a connection holds, the task headers and variables a connector task uses"
      }))
  )
  .pipe(authenticatedGroup("/api/v1/connectors", "Connectors"))
{}

// Switching a connection on and off: the same answer, error and access.
const connectionSwitch = writesOn(ConnectionId, Connection, [NotFoundHttp], Requires.adminOrProcessOwner)

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .add(
    pagedList(ConnectionQuery, Connection, Requires.anyRole, "List connections by name; filter connectorType, enabled"),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateConnection,
      success: Created(Connection, "Connection created"),
      error: [ValidationErrorHttp, ConflictHttp, NotFoundHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Create a connection of a connector type (names are unique per tenant, case-insensitively); secrets are never shown back"
    })),
    itemById(ConnectionId, Connection, Requires.anyRole, "A connection (secret fields read \"********\")"),
    HttpApiEndpoint.put("update", "/:id", {
      params: { id: ConnectionId },
      payload: UpdateConnection,
      success: Ok(Connection),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Rename or replace the configuration (a secret sent back as \"********\" keeps its saved value)"
        })
      ),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: ConnectionId },
      success: Ok(Connection, "Deleted"),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({ summary: "Delete a connection (connector tasks naming it then fail into an incident)" })
      ),
    connectionSwitch("enable", "/:id/enable", "OK", "Switch on: connector tasks may use it"),
    connectionSwitch(
      "disable",
      "/:id/disable",
      "OK",
      "Switch off: connector tasks naming it fail into an incident until it is enabled again"
    ),
    HttpApiEndpoint.post("test", "/:id/test", {
      params: { id: ConnectionId },
      success: Ok(ConnectionTest),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary:
            "Check that the connection is completely configured for its type (lists what is missing; no call is made)"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/connections", "Connections"))
{}

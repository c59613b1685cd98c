// Connections: per tenant, a named configuration of a connector type (base URL, credentials). Secrets are stored and
// used by the connector runtime but never shown back. Saving refuses an incomplete configuration only at test time:
// a draft connection may be saved while it is being filled in, and `test` says what is missing.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, isUniqueViolation, toJson } from "../../persistence/SqlValues.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import { conflict, type NotFound, notFound, type RequestError, validationError } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Connection, ConnectionTest } from "../../schema/Connectors.ts"
import { ConnectionId } from "../../schema/ResourceIds.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, nowMillis } from "../Time.ts"
import { configurationProblems, CONNECTOR_TYPES } from "./ConnectorCatalog.ts"

export const MASK = "********"

interface ConnectionRow {
  readonly id: string
  readonly tenant_id: string
  readonly name: string
  readonly connector_type: string
  readonly config: unknown
  readonly enabled: boolean
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}

/** A connection with its secrets, for the connector runtime only. */
export interface ResolvedConnection {
  readonly id: string
  readonly connectorType: string
  readonly config: Readonly<Record<string, unknown>>
  readonly enabled: boolean
}

const secretsOf = (connectorType: string): ReadonlySet<string> =>
  new Set(
    CONNECTOR_TYPES.find((t) => t.type === connectorType)?.configFields.filter((f) => f.secret).map((f) => f.name) ?? []
  )

const toConnection = (row: ConnectionRow): Connection => {
  const secrets = secretsOf(row.connector_type)
  const config = fromJson<Record<string, unknown>>(row.config)
  return {
    id: row.id,
    name: row.name,
    connectorType: row.connector_type,
    config: Object.fromEntries(
      Object.entries(config).map((
        [key, value]
      ) => [key, secrets.has(key) && value !== undefined && value !== "" ? MASK : value])
    ),
    enabled: row.enabled,
    createdBy: row.created_by,
    createdAt: isoFromDb(row.created_at),
    updatedAt: isoFromDb(row.updated_at)
  }
}

/** The connections of the request's tenant (CurrentTenant), but for the connector runtime's `resolve`. */
export interface ConnectionsShape {
  readonly list: (
    filter: { readonly connectorType?: string | undefined; readonly enabled?: boolean | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Connection>, never, CurrentTenant>
  /** Created by the caller (CurrentPrincipal). */
  readonly create: (
    input: {
      readonly name: string
      readonly connectorType: string
      readonly config: Readonly<Record<string, unknown>>
      readonly enabled?: boolean | undefined
    }
  ) => Effect.Effect<Connection, RequestError, CurrentTenant | CurrentPrincipal>
  readonly get: (id: ConnectionId) => Effect.Effect<Connection, NotFound, CurrentTenant>
  readonly update: (
    id: ConnectionId,
    input: { readonly name?: string | undefined; readonly config?: Readonly<Record<string, unknown>> | undefined }
  ) => Effect.Effect<Connection, RequestError, CurrentTenant>
  readonly remove: (id: ConnectionId) => Effect.Effect<Connection, NotFound, CurrentTenant>
  readonly setEnabled: (id: ConnectionId, enabled: boolean) => Effect.Effect<Connection, NotFound, CurrentTenant>
  readonly test: (id: ConnectionId) => Effect.Effect<typeof ConnectionTest.Type, NotFound, CurrentTenant>
  /** By id or (case-insensitive) name, with secrets; the tenant is given (the connector runtime works outside a request). */
  readonly resolve: (tenantId: string, nameOrId: string) => Effect.Effect<ResolvedConnection | undefined>
}

export class Connections extends Context.Service<Connections, ConnectionsShape>()("flowcore/Connections") {
  static readonly layer = Layer.effect(
    Connections,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const row = Effect.fnUntraced(function*(tenantId: string, id: ConnectionId) {
        const [found] = yield* sql<
          ConnectionRow
        >`SELECT * FROM connections WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("connection", id)
        return found
      })

      const nameTaken = (name: string) =>
        conflict(`a connection named ${name} already exists`, [{
          field: "name",
          message: "already used in this tenant",
          code: "DUPLICATE"
        }])

      return {
        list: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.connectorType === undefined ? [] : [sql`connector_type = ${filter.connectorType}`]),
            ...(filter.enabled === undefined ? [] : [sql`enabled = ${filter.enabled}`])
          ])
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM connections`,
            countFrom: sql`connections`,
            where,
            orderBy: sql`lower(name), id`,
            page,
            toItem: toConnection
          })
        }, Effect.orDie),
        create: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const sub = (yield* CurrentPrincipal).sub
          if (!CONNECTOR_TYPES.some((t) => t.type === input.connectorType)) {
            return yield* validationError(
              "connectorType",
              `${input.connectorType} is not a connector type of this installation (GET /connectors)`
            )
          }
          const id = ConnectionId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO connections (tenant_id, id, name, connector_type, config, enabled, created_by, created_at, updated_at)
              VALUES (${tenantId}, ${id}, ${input.name}, ${input.connectorType}, ${toJson(input.config)}::jsonb, ${
            input.enabled ?? true
          }, ${sub}, ${now}, ${now})`.pipe(
            Effect.catchIf(isUniqueViolation, () => Effect.fail(nameTaken(input.name))),
            Effect.catchTag("SqlError", Effect.die)
          )
          return toConnection(yield* row(tenantId, id))
        }),
        get: (id) => Effect.flatMap(CurrentTenant, (tenantId) => Effect.map(row(tenantId, id), toConnection)),
        update: Effect.fnUntraced(function*(id, input) {
          const tenantId = yield* CurrentTenant
          const current = yield* row(tenantId, id)
          const saved = fromJson<Record<string, unknown>>(current.config)
          // A masked secret sent back unchanged keeps the saved one.
          const config = input.config === undefined
            ? saved
            : Object.fromEntries(
              Object.entries(input.config).map(([key, value]) => [key, value === MASK ? saved[key] : value])
            )
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`UPDATE connections SET name = ${input.name ?? current.name}, config = ${
            toJson(config)
          }::jsonb, updated_at = ${now}
              WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.catchIf(isUniqueViolation, () => Effect.fail(nameTaken(input.name ?? current.name))),
            Effect.catchTag("SqlError", Effect.die)
          )
          return toConnection(yield* row(tenantId, id))
        }),
        remove: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const current = yield* row(tenantId, id)
          yield* sql`DELETE FROM connections WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          return toConnection(current)
        }),
        setEnabled: Effect.fnUntraced(function*(id, enabled) {
          const tenantId = yield* CurrentTenant
          yield* row(tenantId, id)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`UPDATE connections SET enabled = ${enabled}, updated_at = ${now} WHERE tenant_id = ${tenantId} AND id = ${id}`
            .pipe(Effect.orDie)
          return toConnection(yield* row(tenantId, id))
        }),
        test: (id) =>
          Effect.flatMap(CurrentTenant, (tenantId) =>
            Effect.map(row(tenantId, id), (current) => {
              const problems = configurationProblems(
                current.connector_type,
                fromJson<Record<string, unknown>>(current.config)
              )
              return { connectionId: id, complete: problems.length === 0, problems }
            })),
        resolve: Effect.fnUntraced(function*(tenantId, nameOrId) {
          const rows = isUuid(nameOrId)
            ? yield* sql<ConnectionRow>`SELECT * FROM connections WHERE tenant_id = ${tenantId} AND id = ${nameOrId}`
            : yield* sql<
              ConnectionRow
            >`SELECT * FROM connections WHERE tenant_id = ${tenantId} AND lower(name) = lower(${nameOrId})`
          const found = rows[0]
          return found === undefined
            ? undefined
            : {
              id: found.id,
              connectorType: found.connector_type,
              config: fromJson<Record<string, unknown>>(found.config),
              enabled: found.enabled
            }
        }, Effect.orDie)
      }
    })
  )
}

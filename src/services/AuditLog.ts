// The audit log: one record per state-changing API call, written by the HTTP middleware (so no handler can forget
// it) and read through GET /audit-events.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { countOf } from "../persistence/SqlValues.ts"
import { type ValidationError, validationError } from "../schema/ApiErrors.ts"
import type { AuditEvent } from "../schema/Audit.ts"
import { type PageOf, pageOf, type PageRequest } from "../schema/Common.ts"
import { newId } from "./Ids.ts"
import { isoFromDb, nowIso } from "./Time.ts"

export interface AuditRecord {
  readonly tenantId: string
  readonly actor: string | null
  readonly method: string
  readonly path: string
  readonly resourceKind: string | null
  readonly resourceId: string | null
  readonly status: number
  readonly correlationId: string
}

export interface AuditFilter {
  readonly actor?: string | undefined
  readonly resourceKind?: string | undefined
  readonly resourceId?: string | undefined
  readonly method?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

interface AuditRow {
  readonly id: string
  readonly tenant_id: string
  readonly occurred_at: unknown
  readonly actor: string | null
  readonly method: string
  readonly path: string
  readonly resource_kind: string | null
  readonly resource_id: string | null
  readonly status: number
  readonly correlation_id: string
}

const toEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  occurredAt: isoFromDb(row.occurred_at),
  actor: row.actor,
  tenantId: row.tenant_id,
  method: row.method,
  path: row.path,
  resourceKind: row.resource_kind,
  resourceId: row.resource_id,
  status: Number(row.status),
  correlationId: row.correlation_id
})

const parseInstant = (field: string, value: string | undefined): Effect.Effect<string | undefined, ValidationError> => {
  if (value === undefined) return Effect.succeed(undefined)
  const ms = Date.parse(value)
  return Number.isNaN(ms)
    ? Effect.fail(validationError(field, `"${value}" is not an ISO 8601 date-time`, "INVALID_DATE_TIME"))
    : Effect.succeed(new Date(ms).toISOString())
}

export interface AuditLogShape {
  readonly record: (record: AuditRecord) => Effect.Effect<void>
  readonly list: (
    tenantId: string,
    filter: AuditFilter,
    page: PageRequest
  ) => Effect.Effect<PageOf<AuditEvent>, ValidationError>
}

export class AuditLog extends Context.Service<AuditLog, AuditLogShape>()("flowcore/AuditLog") {
  static readonly layer = Layer.effect(
    AuditLog,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return {
        record: (record) =>
          Effect.gen(function*() {
            const id = yield* newId
            const occurredAt = yield* nowIso
            yield* sql`INSERT INTO audit_events
                (tenant_id, id, occurred_at, actor, method, path, resource_kind, resource_id, status, correlation_id)
              VALUES (${record.tenantId}, ${id}, ${occurredAt}, ${record.actor}, ${record.method}, ${record.path},
                ${record.resourceKind}, ${record.resourceId}, ${record.status}, ${record.correlationId})`
          }).pipe(Effect.orDie),
        list: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const from = yield* parseInstant("from", filter.from)
            const to = yield* parseInstant("to", filter.to)
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.actor === undefined ? [] : [sql`actor = ${filter.actor}`]),
              ...(filter.resourceKind === undefined ? [] : [sql`resource_kind = ${filter.resourceKind}`]),
              ...(filter.resourceId === undefined ? [] : [sql`resource_id = ${filter.resourceId}`]),
              ...(filter.method === undefined ? [] : [sql`method = ${filter.method}`]),
              ...(from === undefined ? [] : [sql`occurred_at >= ${from}`]),
              ...(to === undefined ? [] : [sql`occurred_at < ${to}`])
            ])
            const [rows, total] = yield* Effect.all([
              sql<AuditRow>`SELECT * FROM audit_events WHERE ${where}
                ORDER BY occurred_at DESC, id DESC LIMIT ${page.size} OFFSET ${page.page * page.size}`,
              sql<{ count: unknown }>`SELECT count(*) AS count FROM audit_events WHERE ${where}`
            ]).pipe(Effect.orDie)
            return pageOf(rows.map(toEvent), page, countOf(total))
          })
      }
    })
  )
}

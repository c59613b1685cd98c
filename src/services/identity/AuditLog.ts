// The audit log: one record per state-changing API call, written by the HTTP middleware (so no handler can forget
// it) and read through GET /audit-events.
import { Context, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { makeGroupCommit } from "../../persistence/GroupCommit.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { insertFromRecordSet, loadColumnTypes } from "../../persistence/RecordSetInsert.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import type { ValidationError } from "../../schema/ApiErrors.ts"
import type { AuditEvent } from "../../schema/Audit.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import { newId } from "../Ids.ts"
import { queryInstant } from "../QueryInstant.ts"
import { isoFromDb, nowIso } from "../Time.ts"

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

/** The audit_events row of a record (InstanceStore writes it as it is, when a commit carries it: CommitAudit.ts). */
export const auditRow = (record: AuditRecord, id: string, occurredAt: string): Record<string, unknown> => ({
  tenant_id: record.tenantId,
  id,
  occurred_at: occurredAt,
  actor: record.actor,
  method: record.method,
  path: record.path,
  resource_kind: record.resourceKind,
  resource_id: record.resourceId,
  status: record.status,
  correlation_id: record.correlationId
})

export interface AuditLogShape {
  readonly record: (record: AuditRecord) => Effect.Effect<void>
  /** A record written by a commit before its response was known, made to say what the response did. */
  readonly correct: (id: string, record: AuditRecord) => Effect.Effect<void>
  /** The request's tenant's log (CurrentTenant). */
  readonly list: (
    filter: AuditFilter,
    page: PageRequest
  ) => Effect.Effect<PageOf<AuditEvent>, ValidationError, CurrentTenant>
}

export class AuditLog extends Context.Service<AuditLog, AuditLogShape>()("flowcore/AuditLog") {
  static readonly layer = Layer.effect(
    AuditLog,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const types = yield* Effect.orDie(loadColumnTypes(sql, ["audit_events"]))
      // Records of concurrent requests share one INSERT and one commit; each request still waits for its own. The rows
      // travel as one jsonb parameter, so every batch, whatever its size, reuses one prepared statement.
      const rows = makeGroupCommit<Record<string, unknown>, void, never>({
        maxBatch: 500,
        maxInFlight: 2,
        flush: (batch) =>
          insertFromRecordSet(sql, types, "audit_events", batch).pipe(
            Effect.orDie,
            Effect.map(() => batch.map(() => Exit.void))
          )
      })
      return {
        record: Effect.fnUntraced(function*(record) {
          yield* rows.submit(auditRow(record, yield* newId, yield* nowIso))
        }),
        correct: (id, record) =>
          sql`UPDATE audit_events SET status = ${record.status}, resource_kind = ${record.resourceKind},
              resource_id = ${record.resourceId} WHERE tenant_id = ${record.tenantId} AND id = ${id}`.pipe(
            Effect.orDie,
            Effect.asVoid
          ),
        list: Effect.fnUntraced(function*(filter, page) {
          const from = yield* queryInstant("from", filter.from)
          const to = yield* queryInstant("to", filter.to)
          const where = yield* tenantWhere(sql, [
            ...(filter.actor === undefined ? [] : [sql`actor = ${filter.actor}`]),
            ...(filter.resourceKind === undefined ? [] : [sql`resource_kind = ${filter.resourceKind}`]),
            ...(filter.resourceId === undefined ? [] : [sql`resource_id = ${filter.resourceId}`]),
            ...(filter.method === undefined ? [] : [sql`method = ${filter.method}`]),
            ...(from === undefined ? [] : [sql`occurred_at >= ${from}`]),
            ...(to === undefined ? [] : [sql`occurred_at < ${to}`])
          ])
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM audit_events`,
            countFrom: sql`audit_events`,
            where,
            orderBy: sql`occurred_at DESC, id DESC`,
            page,
            toItem: toEvent
          }).pipe(Effect.orDie)
        })
      }
    })
  )
}

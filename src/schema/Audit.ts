// The audit log (GET /audit-events): one record per state-changing call.
import { Schema } from "effect"
import { IsoDateTime, PageQueryFields } from "./Common.ts"

export const AuditEvent = Schema.Struct({
  id: Schema.String,
  occurredAt: IsoDateTime,
  actor: Schema.NullOr(Schema.String).annotate({ description: "the caller's sub" }),
  tenantId: Schema.String,
  method: Schema.String,
  path: Schema.String,
  resourceKind: Schema.NullOr(Schema.String),
  resourceId: Schema.NullOr(Schema.String),
  status: Schema.Int,
  correlationId: Schema.String
}).annotate({ identifier: "AuditEvent" })
export type AuditEvent = typeof AuditEvent.Type

const HttpMethod = Schema.Literals(["POST", "PUT", "PATCH", "DELETE"])

export const AuditQuery = {
  ...PageQueryFields,
  actor: Schema.optional(Schema.String),
  resourceKind: Schema.optional(Schema.String),
  resourceId: Schema.optional(Schema.String),
  method: Schema.optional(HttpMethod),
  from: Schema.optional(Schema.String).annotate({ description: "ISO 8601 date-time, inclusive" }),
  to: Schema.optional(Schema.String).annotate({ description: "ISO 8601 date-time, exclusive" })
}

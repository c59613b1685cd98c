// Decision rows: their shape, the API view of one, and finding one by id, key or name.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { Decision } from "../../schema/Decisions.ts"
import type { DecisionModelId } from "../../schema/ResourceIds.ts"
import { isUuid } from "../Ids.ts"
import { isoFromDb } from "../Time.ts"

export interface DecisionRow {
  readonly id: string
  readonly version_tag?: string | null
  readonly key: string
  readonly name: string | null
  readonly version: number
  readonly kind: string
  readonly hit_policy: string | null
  readonly decision_model_id: DecisionModelId
  readonly format: Decision["format"]
  readonly source: unknown
  readonly created_by: string
  readonly created_at: unknown
}

export const toDecision = (row: DecisionRow): Decision => ({
  id: row.id,
  key: row.key,
  name: row.name,
  version: Number(row.version),
  versionTag: row.version_tag ?? null,
  kind: row.kind,
  hitPolicy: row.hit_policy,
  decisionModelId: row.decision_model_id,
  format: row.format,
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at)
})

/**
 * A decision by its id (that version), or else by its key, or else by its name (unique in the tenant): the
 * latest version — as a business rule task, the TCK and people name decisions.
 */
export const findDecision = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, tenantId: string, id: string) {
  const select = sql`SELECT d.*, m.format FROM decisions d JOIN decision_models m ON m.id = d.decision_model_id`
  const byId = isUuid(id)
    ? yield* sql<DecisionRow>`${select} WHERE d.tenant_id = ${tenantId} AND d.id = ${id}`.pipe(Effect.orDie)
    : []
  if (byId[0] !== undefined) return byId[0]
  const byKey = yield* sql<DecisionRow>`${select} WHERE d.tenant_id = ${tenantId} AND d.key = ${id}
      ORDER BY d.version DESC LIMIT 1`.pipe(Effect.orDie)
  if (byKey[0] !== undefined) return byKey[0]
  const byName = yield* sql<DecisionRow>`${select} WHERE d.tenant_id = ${tenantId} AND d.name = ${id}
      ORDER BY d.version DESC`.pipe(Effect.orDie)
  const keys = [...new Set(byName.map((row) => row.key))]
  if (keys.length > 1) {
    // A name several decisions share names none of them: the caller uses a key or an id.
    return yield* Effect.fail(
      new NotFound({
        message: `no single decision named ${id}: decisions ${keys.join(", ")} share the name; use a key or an id`,
        errors: [{ field: "id", message: `ambiguous name ${id}`, code: "AMBIGUOUS_NAME" }]
      })
    )
  }
  if (byName[0] === undefined) return yield* notFound("decision", id)
  return byName[0]
})

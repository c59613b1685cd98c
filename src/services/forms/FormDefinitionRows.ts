// A form definition as stored, and the entries of its governance trail: shared by its lifecycle (FormDefinitions.ts),
// its versions (FormDefinitionVersions.ts) and its translations (FormDefinitionLocales.ts).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { contentOf, fromJson } from "../../persistence/SqlValues.ts"
import { notFound } from "../../schema/ApiErrors.ts"
import type { FormDefinition } from "../../schema/Forms.ts"
import type { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { isoFromDb } from "../Time.ts"

export type FormState = FormDefinition["state"]

export interface DefinitionRow {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly state: FormState
  readonly schema: unknown
  readonly version: number
  readonly restored_from: unknown
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}

export const toDefinition = (row: DefinitionRow): FormDefinition => ({
  id: row.id,
  key: row.key,
  name: row.name,
  state: row.state,
  version: Number(row.version),
  schema: contentOf(row.schema),
  restoredFrom: row.restored_from === null ? null : fromJson(row.restored_from),
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

/** Reading a definition of the request's tenant (CurrentTenant), and writing an entry of a definition's trail. */
export const makeDefinitionRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const row = Effect.fnUntraced(function*(id: FormDefinitionId) {
    const tenantId = yield* CurrentTenant
    const [found] = yield* sql<
      DefinitionRow
    >`SELECT * FROM form_definitions WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
    if (found === undefined) return yield* notFound("form definition", id)
    return found
  })

  const record = (
    formId: string,
    actor: string,
    action: string,
    fromState: FormState | null,
    toState: FormState | null,
    detail: string | null,
    now: string
  ) =>
    sql`INSERT INTO form_definition_audit (form_id, seq, action, from_state, to_state, actor, detail, occurred_at)
          VALUES (${formId}, (SELECT coalesce(max(seq), 0) + 1 FROM form_definition_audit WHERE form_id = ${formId}), ${action}, ${fromState},
            ${toState}, ${actor}, ${detail}, ${now})`

  return { row, record }
})

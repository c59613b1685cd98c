// A user task's form bound by version tag (zeebe:formDefinition bindingType="versionTag"): the latest version of the
// form whose JSON carries that `versionTag`, among deployed forms and the versions of form definitions (both stored as
// {"value": <the form>}). Bound by deployment (bindingType="deployment"): the form deployed in the same
// POST /deployments as the task's process version.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { contentOf } from "../../persistence/SqlValues.ts"

export interface TaggedForm {
  readonly source: "FORM_DEFINITION" | "LEGACY_FORM"
  readonly sourceId: string
  readonly schema: unknown
}

export const taggedForm = (
  sql: SqlClient.SqlClient,
  tenantId: string,
  formKey: string,
  versionTag: string
): Effect.Effect<TaggedForm | undefined> =>
  sql<{ source: TaggedForm["source"]; source_id: string; schema: unknown; version: number }>`
    SELECT * FROM (
      SELECT 'LEGACY_FORM' AS source, id AS source_id, schema, version FROM legacy_forms
        WHERE tenant_id = ${tenantId} AND key = ${formKey} AND schema->'value'->>'versionTag' = ${versionTag}
      UNION ALL
      SELECT 'FORM_DEFINITION' AS source, d.id AS source_id, v.schema, v.version
        FROM form_definitions d JOIN form_definition_versions v ON v.form_id = d.id
        WHERE d.tenant_id = ${tenantId} AND d.key = ${formKey} AND v.schema->'value'->>'versionTag' = ${versionTag}
    ) tagged ORDER BY version DESC LIMIT 1`.pipe(
    Effect.map((rows) => {
      const row = rows[0]
      if (row === undefined) return undefined
      return { source: row.source, sourceId: row.source_id, schema: contentOf(row.schema) }
    }),
    Effect.orDie
  )

/** The form of that id deployed together with the instance's process version (bindingType="deployment"). */
export const formDeployedWith = (
  sql: SqlClient.SqlClient,
  tenantId: string,
  formKey: string,
  instanceId: string
): Effect.Effect<TaggedForm | undefined> =>
  sql<{ id: string; schema: unknown }>`SELECT f.id, f.schema FROM legacy_forms f
    WHERE f.tenant_id = ${tenantId} AND f.key = ${formKey} AND f.bundle_id = (
      SELECT coalesce(p.bundle_id, p.id) FROM process_instances i JOIN deployments p ON p.id = i.deployment_id
      WHERE i.tenant_id = ${tenantId} AND i.id = ${instanceId})
    ORDER BY f.version DESC LIMIT 1`.pipe(
    Effect.map((rows) => {
      const row = rows[0]
      return row === undefined
        ? undefined
        : { source: "LEGACY_FORM" as const, sourceId: row.id, schema: contentOf(row.schema) }
    }),
    Effect.orDie
  )

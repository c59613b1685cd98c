// Legacy simple forms: a list of fields per key, versioned (deploying a key again or editing a version publishes
// the next version). Migrating one to v1 imports it as a form-designer DRAFT (form-js components), lineage recorded.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { pagedQuery } from "../persistence/PagedQuery.ts"
import { contentOf, storedContent } from "../persistence/SqlValues.ts"
import { type BusinessError, type Conflict, type NotFound, notFound } from "../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../schema/Common.ts"
import type { FormDefinition, LegacyForm, LegacySchema } from "../schema/Forms.ts"
import { LegacyFormId } from "../schema/ResourceIds.ts"
import { FormDefinitions } from "./FormDefinitions.ts"
import { newId } from "./Ids.ts"
import { type TaggedForm, taggedForm } from "./TaggedForms.ts"
import { isoFromDb, nowMillis } from "./Time.ts"

type Schema = typeof LegacySchema.Type

interface LegacyRow {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly schema: unknown
  readonly created_by: string
  readonly created_at: unknown
}
const toLegacy = (row: LegacyRow): LegacyForm => ({
  id: row.id,
  key: row.key,
  version: Number(row.version),
  schema: contentOf(row.schema),
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at)
})

const COMPONENT_OF: Readonly<Record<Schema["fields"][number]["type"], string>> = {
  string: "textfield",
  number: "number",
  boolean: "checkbox",
  date: "datetime",
  enum: "select"
}

/** The legacy fields as form-js components. */
export const toFormJs = (key: string, schema: Schema) => ({
  type: "default",
  id: key,
  schemaVersion: 16,
  components: schema.fields.map((field) => ({
    type: COMPONENT_OF[field.type],
    key: field.id,
    id: `Field_${field.id}`,
    label: field.label ?? field.id,
    ...(field.type === "date" ? { subtype: "date" } : {}),
    ...(field.type === "enum" ? { values: (field.values ?? []).map((value) => ({ label: value, value })) } : {}),
    ...(field.required === true ? { validate: { required: true } } : {})
  }))
})

export interface LegacyFormsShape {
  readonly list: (tenantId: string, key: string | undefined, page: PageRequest) => Effect.Effect<PageOf<LegacyForm>>
  readonly deploy: (principal: Principal, key: string, schema: Schema) => Effect.Effect<LegacyForm>
  readonly get: (tenantId: string, id: LegacyFormId) => Effect.Effect<LegacyForm, NotFound>
  readonly edit: (principal: Principal, id: LegacyFormId, schema: Schema) => Effect.Effect<LegacyForm, NotFound>
  readonly remove: (tenantId: string, id: LegacyFormId) => Effect.Effect<LegacyForm, NotFound>
  readonly migrate: (
    principal: Principal,
    id: LegacyFormId
  ) => Effect.Effect<FormDefinition, NotFound | Conflict | BusinessError>
  readonly latestByKey: (tenantId: string, key: string) => Effect.Effect<LegacyForm | undefined>
  /** The latest version of a form (deployed or a form definition's) carrying a versionTag (TaggedForms.ts). */
  readonly taggedForm: (tenantId: string, key: string, versionTag: string) => Effect.Effect<TaggedForm | undefined>
}

export class LegacyForms extends Context.Service<LegacyForms, LegacyFormsShape>()("flowcore/LegacyForms") {
  static readonly layer = Layer.effect(
    LegacyForms,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const definitions = yield* FormDefinitions

      const row = (tenantId: string, id: LegacyFormId) =>
        Effect.gen(function*() {
          const [found] = yield* sql<LegacyRow>`SELECT * FROM legacy_forms WHERE tenant_id = ${tenantId} AND id = ${id}`
            .pipe(Effect.orDie)
          if (found === undefined) return yield* notFound("form", id)
          return found
        })

      const deploy = (principal: Principal, key: string, schema: Schema) =>
        Effect.gen(function*() {
          const id = LegacyFormId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO legacy_forms (tenant_id, id, key, version, schema, created_by, created_at)
            VALUES (${principal.tenantId}, ${id}, ${key},
              (SELECT coalesce(max(version), 0) + 1 FROM legacy_forms WHERE tenant_id = ${principal.tenantId} AND key = ${key}),
              ${storedContent(schema)}::jsonb, ${principal.sub}, ${now})`.pipe(Effect.orDie)
          return toLegacy(yield* Effect.orDie(row(principal.tenantId, id)))
        })

      return {
        list: (tenantId, key, page) =>
          Effect.gen(function*() {
            const where = sql.and([sql`tenant_id = ${tenantId}`, ...(key === undefined ? [] : [sql`key = ${key}`])])
            return yield* pagedQuery(sql, {
              select: sql`SELECT * FROM legacy_forms`,
              countFrom: sql`legacy_forms`,
              where,
              orderBy: sql`key, version DESC`,
              page,
              toItem: toLegacy
            }).pipe(Effect.orDie)
          }),
        deploy,
        get: (tenantId, id) => Effect.map(row(tenantId, id), toLegacy),
        edit: (principal, id, schema) =>
          Effect.flatMap(row(principal.tenantId, id), (current) => deploy(principal, current.key, schema)),
        remove: (tenantId, id) =>
          Effect.gen(function*() {
            const current = yield* row(tenantId, id)
            yield* sql`DELETE FROM legacy_forms WHERE id = ${id}`.pipe(Effect.orDie)
            return toLegacy(current)
          }),
        migrate: (principal, id) =>
          Effect.gen(function*() {
            const current = yield* row(principal.tenantId, id)
            const schema = contentOf(current.schema) as Schema
            return yield* definitions.create(principal, {
              name: current.key,
              key: current.key,
              schema: toFormJs(current.key, schema)
            }, { formId: current.id, version: Number(current.version) })
          }),
        taggedForm: (tenantId, key, versionTag) => taggedForm(sql, tenantId, key, versionTag),
        latestByKey: (tenantId, key) =>
          Effect.map(
            sql<
              LegacyRow
            >`SELECT * FROM legacy_forms WHERE tenant_id = ${tenantId} AND key = ${key} ORDER BY version DESC LIMIT 1`
              .pipe(Effect.orDie),
            (rows) => (rows[0] === undefined ? undefined : toLegacy(rows[0]))
          )
      }
    })
  )
}

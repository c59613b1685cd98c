// Legacy simple forms: a list of fields per key, versioned (deploying a key again or editing a version publishes
// the next version). Migrating one to v1 imports it as a form-designer DRAFT (form-js components), lineage recorded.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { contentOf, storedContent } from "../../persistence/SqlValues.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import { type BusinessError, type Conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { FormDefinition, LegacyForm, LegacySchema } from "../../schema/Forms.ts"
import { LegacyFormId } from "../../schema/ResourceIds.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowMillis } from "../Time.ts"
import { FormDefinitions } from "./FormDefinitions.ts"
import { formDeployedWith, type TaggedForm, taggedForm } from "./TaggedForms.ts"

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

type Caller = CurrentTenant | CurrentPrincipal

/** The legacy forms of the request's tenant (CurrentTenant), deployed by the caller (CurrentPrincipal). */
export interface LegacyFormsShape {
  readonly list: (key: string | undefined, page: PageRequest) => Effect.Effect<PageOf<LegacyForm>, never, CurrentTenant>
  readonly deploy: (key: string, schema: Schema) => Effect.Effect<LegacyForm, never, Caller>
  /** A form (a Camunda `.form`, form-js JSON) deployed by POST /deployments together with the processes using it. */
  readonly deployInBundle: (
    key: string,
    form: Readonly<Record<string, unknown>>,
    bundleId: string
  ) => Effect.Effect<LegacyForm, never, Caller>
  readonly get: (id: LegacyFormId) => Effect.Effect<LegacyForm, NotFound, CurrentTenant>
  readonly edit: (id: LegacyFormId, schema: Schema) => Effect.Effect<LegacyForm, NotFound, Caller>
  readonly remove: (id: LegacyFormId) => Effect.Effect<LegacyForm, NotFound, CurrentTenant>
  readonly migrate: (id: LegacyFormId) => Effect.Effect<FormDefinition, NotFound | Conflict | BusinessError, Caller>
  /** The latest version of a key (user task forms). */
  readonly latestByKey: (key: string) => Effect.Effect<LegacyForm | undefined, never, CurrentTenant>
  /** The latest version of a form (deployed or a form definition's) carrying a versionTag (TaggedForms.ts). */
  readonly taggedForm: (key: string, versionTag: string) => Effect.Effect<TaggedForm | undefined, never, CurrentTenant>
  /** The form deployed together with an instance's process version (bindingType="deployment", TaggedForms.ts). */
  readonly formDeployedWith: (
    key: string,
    instanceId: string
  ) => Effect.Effect<TaggedForm | undefined, never, CurrentTenant>
}

export class LegacyForms extends Context.Service<LegacyForms, LegacyFormsShape>()("flowcore/LegacyForms") {
  static readonly layer = Layer.effect(
    LegacyForms,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const definitions = yield* FormDefinitions

      const row = Effect.fnUntraced(function*(id: LegacyFormId) {
        const tenantId = yield* CurrentTenant
        const [found] = yield* sql<LegacyRow>`SELECT * FROM legacy_forms WHERE tenant_id = ${tenantId} AND id = ${id}`
          .pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("form", id)
        return found
      })

      const deploy = Effect.fnUntraced(function*(
        key: string,
        schema: Schema | Readonly<Record<string, unknown>>,
        bundleId: string | null = null
      ) {
        const tenantId = yield* CurrentTenant
        const principal = yield* CurrentPrincipal
        const id = LegacyFormId.make(yield* newId)
        const now = new Date(yield* nowMillis).toISOString()
        yield* sql`INSERT INTO legacy_forms (tenant_id, id, key, version, schema, created_by, created_at, bundle_id)
            VALUES (${tenantId}, ${id}, ${key},
              (SELECT coalesce(max(version), 0) + 1 FROM legacy_forms WHERE tenant_id = ${tenantId} AND key = ${key}),
              ${storedContent(schema)}::jsonb, ${principal.sub}, ${now}, ${bundleId})`.pipe(Effect.orDie)
        return toLegacy(yield* Effect.orDie(row(id)))
      })

      return {
        list: Effect.fnUntraced(function*(key, page) {
          const where = yield* tenantWhere(sql, key === undefined ? [] : [sql`key = ${key}`])
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM legacy_forms`,
            countFrom: sql`legacy_forms`,
            where,
            orderBy: sql`key, version DESC`,
            page,
            toItem: toLegacy
          }).pipe(Effect.orDie)
        }),
        deploy: (key, schema) => deploy(key, schema),
        deployInBundle: deploy,
        get: (id) => Effect.map(row(id), toLegacy),
        edit: (id, schema) => Effect.flatMap(row(id), (current) => deploy(current.key, schema)),
        remove: Effect.fnUntraced(function*(id) {
          const current = yield* row(id)
          yield* sql`DELETE FROM legacy_forms WHERE id = ${id}`.pipe(Effect.orDie)
          return toLegacy(current)
        }),
        migrate: Effect.fnUntraced(function*(id) {
          const current = yield* row(id)
          const schema = contentOf(current.schema) as Schema
          return yield* definitions.create({
            name: current.key,
            key: current.key,
            schema: toFormJs(current.key, schema)
          }, { formId: current.id, version: Number(current.version) })
        }),
        taggedForm: (key, versionTag) =>
          Effect.flatMap(CurrentTenant, (tenantId) => taggedForm(sql, tenantId, key, versionTag)),
        formDeployedWith: (key, instanceId) =>
          Effect.flatMap(CurrentTenant, (tenantId) => formDeployedWith(sql, tenantId, key, instanceId)),
        latestByKey: Effect.fnUntraced(function*(key) {
          const tenantId = yield* CurrentTenant
          const rows = yield* sql<
            LegacyRow
          >`SELECT * FROM legacy_forms WHERE tenant_id = ${tenantId} AND key = ${key} ORDER BY version DESC LIMIT 1`
            .pipe(Effect.orDie)
          return rows[0] === undefined ? undefined : toLegacy(rows[0])
        })
      }
    })
  )
}

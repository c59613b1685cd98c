// Form-designer definitions: a form-js form with a lifecycle (DRAFT -> VALIDATED -> PUBLISHED -> DEPLOYED ->
// RETIRED; back to DRAFT from VALIDATED, PUBLISHED or RETIRED), a version per saved change and a governance trail of
// every edit and transition (FormDefinitionVersions.ts), translated labels per locale (FormDefinitionLocales.ts), and
// lineage (restoring a version makes a new draft). Deploying makes it the form of user tasks whose formKey is its key;
// an earlier deployed definition of that key is retired. Within the request's tenant (CurrentTenant); changes are the
// caller's (CurrentPrincipal).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { checkForm, runForm } from "../../forms/FormSchema.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { contentOf, storedContent, toJson } from "../../persistence/SqlValues.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import { type BusinessError, businessError, type Conflict, conflict, type NotFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { FormDefinition } from "../../schema/Forms.ts"
import { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { newId } from "../Ids.ts"
import { nowMillis } from "../Time.ts"
import { type FormDefinitionLocalesShape, makeFormDefinitionLocales } from "./FormDefinitionLocales.ts"
import { type DefinitionRow, type FormState, makeDefinitionRows, toDefinition } from "./FormDefinitionRows.ts"
import { type FormDefinitionVersionsShape, makeFormDefinitionVersions } from "./FormDefinitionVersions.ts"

type Failure = NotFound | Conflict | BusinessError
type Written = Effect.Effect<FormDefinition, Failure, CurrentTenant | CurrentPrincipal>

/** Lifecycle: the transitions and the states each starts from. */
const TRANSITIONS: Readonly<Record<string, { readonly from: ReadonlyArray<FormState>; readonly to: FormState }>> = {
  validate: { from: ["DRAFT"], to: "VALIDATED" },
  publish: { from: ["VALIDATED"], to: "PUBLISHED" },
  deploy: { from: ["PUBLISHED"], to: "DEPLOYED" },
  retire: { from: ["DEPLOYED"], to: "RETIRED" },
  returnToDraft: { from: ["VALIDATED", "PUBLISHED", "RETIRED"], to: "DRAFT" }
}
export type Transition = "validate" | "publish" | "deploy" | "retire" | "returnToDraft"

const keyOf = (name: string, form: unknown) => {
  const id = typeof form === "object" && form !== null ? (form as Record<string, unknown>)["id"] : undefined
  return typeof id === "string" && id !== ""
    ? id
    : name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "form"
}

export interface FormDefinitionsShape extends FormDefinitionVersionsShape, FormDefinitionLocalesShape {
  readonly list: (
    filter: { readonly state?: FormState | undefined; readonly key?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<FormDefinition>, never, CurrentTenant>
  readonly create: (
    input: { readonly name: string; readonly key?: string | undefined; readonly schema: unknown },
    restoredFrom?: { formId: string; version: number }
  ) => Written
  readonly get: (id: FormDefinitionId) => Effect.Effect<FormDefinition, NotFound, CurrentTenant>
  readonly update: (
    id: FormDefinitionId,
    input: { readonly name?: string | undefined; readonly schema?: unknown }
  ) => Written
  readonly remove: (id: FormDefinitionId) => Written
  readonly transition: (
    id: FormDefinitionId,
    transition: Transition
  ) => Effect.Effect<
    { definition: FormDefinition; warnings: ReadonlyArray<{ path: string; message: string }> },
    Failure,
    CurrentTenant | CurrentPrincipal
  >
  readonly playground: (
    id: FormDefinitionId,
    data: Readonly<Record<string, unknown>>
  ) => Effect.Effect<ReturnType<typeof runForm>, NotFound, CurrentTenant>
  /**
   * Saves a form under its key (the form's id, else the name, as create derives it): a new version of the key's most
   * recently changed DRAFT definition (as update), or — when the key has none in DRAFT, so nothing VALIDATED, PUBLISHED,
   * DEPLOYED or RETIRED is touched — a new DRAFT definition of that key (as create). Checked as create and update
   * check. A promoted FORM draft (POST /drafts/{id}/promote) lands here.
   */
  readonly saveByKey: (input: { readonly name: string; readonly schema: unknown }) => Written
  /** The deployed definition with this key, if any (user task forms). */
  readonly deployedByKey: (key: string) => Effect.Effect<FormDefinition | undefined, never, CurrentTenant>
}

export class FormDefinitions
  extends Context.Service<FormDefinitions, FormDefinitionsShape>()("flowcore/FormDefinitions")
{
  static readonly layer = Layer.effect(
    FormDefinitions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { record, row } = yield* makeDefinitionRows

      const draftOnly = (definition: DefinitionRow, what: string) =>
        definition.state === "DRAFT"
          ? Effect.void
          : Effect.fail(
            conflict(
              `form definition ${definition.id} is ${definition.state}: it can be ${what} only while DRAFT (return it to draft first)`
            )
          )

      const invalid = (errors: ReadonlyArray<{ path: string; message: string }>) =>
        businessError(
          `the form is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
          errors.map((e) => ({
            field: e.path === "" ? "schema" : `schema.${e.path}`,
            message: e.message,
            code: "INVALID_FORM"
          }))
        )

      const create: FormDefinitionsShape["create"] = Effect.fnUntraced(function*(input, restoredFrom) {
        const tenantId = yield* CurrentTenant
        const principal = yield* CurrentPrincipal
        const { errors } = checkForm(input.schema)
        // A draft may be incomplete, but it must be a form at all.
        if (
          typeof input.schema !== "object" || input.schema === null || Array.isArray(input.schema)
        ) return yield* invalid(errors)
        const id = FormDefinitionId.make(yield* newId)
        const now = new Date(yield* nowMillis).toISOString()
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO form_definitions (tenant_id, id, key, name, state, schema, version, restored_from, created_by, created_at, updated_at)
              VALUES (${tenantId}, ${id}, ${input.key ?? keyOf(input.name, input.schema)}, ${input.name}, 'DRAFT', ${
            storedContent(input.schema)
          }::jsonb,
                1, ${
            restoredFrom === undefined ? null : toJson(restoredFrom)
          }::jsonb, ${principal.sub}, ${now}, ${now})`
          yield* sql`INSERT INTO form_definition_versions (form_id, version, name, schema, author, created_at)
              VALUES (${id}, 1, ${input.name}, ${storedContent(input.schema)}::jsonb, ${principal.sub}, ${now})`
          yield* record(
            id,
            principal.sub,
            restoredFrom === undefined ? "CREATED" : "RESTORED",
            null,
            "DRAFT",
            restoredFrom === undefined ? null : `from version ${restoredFrom.version} of ${restoredFrom.formId}`,
            now
          )
        })).pipe(Effect.orDie)
        return toDefinition(yield* Effect.orDie(row(id)))
      })

      const update: FormDefinitionsShape["update"] = Effect.fnUntraced(function*(id, input) {
        const principal = yield* CurrentPrincipal
        const current = yield* row(id)
        yield* draftOnly(current, "edited")
        const schema = input.schema === undefined ? contentOf(current.schema) : input.schema
        if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
          return yield* invalid(checkForm(schema).errors)
        }
        const version = Number(current.version) + 1
        const name = input.name ?? current.name
        const now = new Date(yield* nowMillis).toISOString()
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE form_definitions SET name = ${name}, schema = ${
            storedContent(schema)
          }::jsonb, version = ${version}, updated_at = ${now}
              WHERE id = ${id}`
          yield* sql`INSERT INTO form_definition_versions (form_id, version, name, schema, author, created_at)
              VALUES (${id}, ${version}, ${name}, ${storedContent(schema)}::jsonb, ${principal.sub}, ${now})`
          yield* record(id, principal.sub, "EDITED", "DRAFT", "DRAFT", `version ${version}`, now)
        })).pipe(Effect.orDie)
        return toDefinition(yield* row(id))
      })

      const saveByKey: FormDefinitionsShape["saveByKey"] = Effect.fnUntraced(function*(input) {
        const tenantId = yield* CurrentTenant
        const key = keyOf(input.name, input.schema)
        // One transaction (a savepoint inside a caller's), the definition it adds to locked: a concurrent save of the
        // same key waits and then adds the version after this one.
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [open] = yield* sql<{ readonly id: string }>`SELECT id FROM form_definitions
              WHERE tenant_id = ${tenantId} AND key = ${key} AND state = 'DRAFT'
              ORDER BY updated_at DESC, id LIMIT 1 FOR UPDATE`
          return open === undefined
            ? yield* create({ name: input.name, key, schema: input.schema })
            : yield* update(FormDefinitionId.make(open.id), { name: input.name, schema: input.schema })
        })).pipe(Effect.catchTag("SqlError", Effect.die))
      })

      const versions = yield* makeFormDefinitionVersions(create)
      const locales = yield* makeFormDefinitionLocales

      return {
        ...versions,
        ...locales,
        list: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
            ...(filter.key === undefined ? [] : [sql`key = ${filter.key}`])
          ])
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM form_definitions`,
            countFrom: sql`form_definitions`,
            where,
            orderBy: sql`updated_at DESC, id`,
            page,
            toItem: toDefinition
          }).pipe(Effect.orDie)
        }),
        create,
        get: (id) => Effect.map(row(id), toDefinition),
        update,
        saveByKey,
        remove: Effect.fnUntraced(function*(id) {
          const current = yield* row(id)
          yield* draftOnly(current, "deleted")
          yield* sql`DELETE FROM form_definitions WHERE id = ${id}`.pipe(Effect.orDie)
          return toDefinition(current)
        }),
        transition: Effect.fnUntraced(function*(id, transition) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          const current = yield* row(id)
          const rule = TRANSITIONS[transition]!
          if (!rule.from.includes(current.state)) {
            return yield* conflict(
              `form definition ${id} is ${current.state}: ${transition} needs ${rule.from.join(" or ")}`,
              [
                { field: "state", message: `is ${current.state}`, code: "WRONG_STATE" }
              ]
            )
          }
          const check = checkForm(contentOf(current.schema))
          if (transition === "validate" && check.errors.length > 0) return yield* invalid(check.errors)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql.withTransaction(Effect.gen(function*() {
            if (transition === "deploy") {
              // One deployed definition per key: the one deployed before is retired.
              const previous = yield* sql<
                { id: string }
              >`UPDATE form_definitions SET state = 'RETIRED', updated_at = ${now}
                  WHERE tenant_id = ${tenantId} AND key = ${current.key} AND state = 'DEPLOYED' AND id <> ${id} RETURNING id`
              for (const retired of previous) {
                yield* record(retired.id, principal.sub, "RETIRED", "DEPLOYED", "RETIRED", `replaced by ${id}`, now)
              }
            }
            yield* sql`UPDATE form_definitions SET state = ${rule.to}, updated_at = ${now} WHERE id = ${id}`
            yield* record(id, principal.sub, transition.toUpperCase(), current.state, rule.to, null, now)
          })).pipe(Effect.orDie)
          return { definition: toDefinition(yield* row(id)), warnings: check.warnings }
        }),
        playground: (id, data) => Effect.map(row(id), (current) => runForm(contentOf(current.schema), data)),
        deployedByKey: Effect.fnUntraced(function*(key) {
          const tenantId = yield* CurrentTenant
          const rows = yield* sql<
            DefinitionRow
          >`SELECT * FROM form_definitions WHERE tenant_id = ${tenantId} AND key = ${key} AND state = 'DEPLOYED' LIMIT 1`
            .pipe(Effect.orDie)
          return rows[0] === undefined ? undefined : toDefinition(rows[0])
        })
      }
    })
  )
}

// Form-designer definitions: a form-js form with a lifecycle (DRAFT -> VALIDATED -> PUBLISHED -> DEPLOYED ->
// RETIRED; back to DRAFT from VALIDATED, PUBLISHED or RETIRED), a version per saved change, a governance trail of every
// edit and transition, translated labels per locale, and lineage (restoring a version makes a new draft). Deploying
// makes it the form of user tasks whose formKey is its key; an earlier deployed definition of that key is retired.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { checkForm, diffForms, resolveLabels, runForm } from "../forms/FormSchema.ts"
import { pagedQuery } from "../persistence/PagedQuery.ts"
import { contentOf, fromJson, storedContent, toJson } from "../persistence/SqlValues.ts"
import {
  type BusinessError,
  businessError,
  type Conflict,
  conflict,
  type NotFound,
  notFound
} from "../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../schema/Common.ts"
import type { FormDefinition } from "../schema/Forms.ts"
import { FormDefinitionId } from "../schema/ResourceIds.ts"
import { newId } from "./Ids.ts"
import { isoFromDb, nowMillis } from "./Time.ts"

type State = FormDefinition["state"]
type Failure = NotFound | Conflict | BusinessError
type Written = Effect.Effect<FormDefinition, Failure>

interface DefinitionRow {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly state: State
  readonly schema: unknown
  readonly version: number
  readonly restored_from: unknown
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}

const toDefinition = (row: DefinitionRow): FormDefinition => ({
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

/** Lifecycle: the transitions and the states each starts from. */
const TRANSITIONS: Readonly<Record<string, { readonly from: ReadonlyArray<State>; readonly to: State }>> = {
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

export interface FormDefinitionsShape {
  readonly list: (
    tenantId: string,
    filter: { readonly state?: State | undefined; readonly key?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<FormDefinition>>
  readonly create: (
    principal: Principal,
    input: { readonly name: string; readonly key?: string | undefined; readonly schema: unknown },
    restoredFrom?: { formId: string; version: number }
  ) => Written
  readonly get: (tenantId: string, id: FormDefinitionId) => Effect.Effect<FormDefinition, NotFound>
  readonly update: (
    principal: Principal,
    id: FormDefinitionId,
    input: { readonly name?: string | undefined; readonly schema?: unknown }
  ) => Written
  readonly remove: (principal: Principal, id: FormDefinitionId) => Written
  readonly transition: (
    principal: Principal,
    id: FormDefinitionId,
    transition: Transition
  ) => Effect.Effect<
    { definition: FormDefinition; warnings: ReadonlyArray<{ path: string; message: string }> },
    Failure
  >
  readonly playground: (
    tenantId: string,
    id: FormDefinitionId,
    data: Readonly<Record<string, unknown>>
  ) => Effect.Effect<ReturnType<typeof runForm>, NotFound>
  readonly versions: (
    tenantId: string,
    id: FormDefinitionId
  ) => Effect.Effect<
    ReadonlyArray<{ version: number; name: string; schema: unknown; author: string; createdAt: string }>,
    NotFound
  >
  readonly diff: (
    tenantId: string,
    id: FormDefinitionId,
    from: number | undefined,
    to: number | undefined
  ) => Effect.Effect<{ from: number; to: number } & ReturnType<typeof diffForms>, NotFound>
  readonly restore: (principal: Principal, id: FormDefinitionId, version: number) => Written
  readonly lineage: (
    tenantId: string,
    id: FormDefinitionId
  ) => Effect.Effect<
    {
      formId: string
      restoredFrom: Array<{ formId: string; version: number }>
      restoredInto: Array<{ formId: string; version: number }>
    },
    NotFound
  >
  readonly audit: (
    tenantId: string,
    id: FormDefinitionId
  ) => Effect.Effect<
    ReadonlyArray<{
      seq: number
      action: string
      fromState: State | null
      toState: State | null
      actor: string
      detail: string | null
      occurredAt: string
    }>,
    NotFound
  >
  readonly locales: (
    tenantId: string,
    id: FormDefinitionId
  ) => Effect.Effect<ReadonlyArray<{ locale: string; labels: Record<string, string>; updatedAt: string }>, NotFound>
  readonly saveLocale: (
    principal: Principal,
    id: FormDefinitionId,
    locale: string,
    labels: Readonly<Record<string, string>>
  ) => Effect.Effect<{ locale: string; labels: Record<string, string>; updatedAt: string }, Failure>
  readonly removeLocale: (
    principal: Principal,
    id: FormDefinitionId,
    locale: string
  ) => Effect.Effect<{ locale: string; labels: Record<string, string>; updatedAt: string }, NotFound>
  readonly resolved: (
    tenantId: string,
    id: FormDefinitionId,
    locale: string
  ) => Effect.Effect<ReturnType<typeof resolveLabels>, NotFound>
  /** The deployed definition with this key, if any (user task forms). */
  readonly deployedByKey: (tenantId: string, key: string) => Effect.Effect<FormDefinition | undefined>
}

const LOCALE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/

export class FormDefinitions
  extends Context.Service<FormDefinitions, FormDefinitionsShape>()("flowcore/FormDefinitions")
{
  static readonly layer = Layer.effect(
    FormDefinitions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const row = (tenantId: string, id: FormDefinitionId) =>
        Effect.gen(function*() {
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
        fromState: State | null,
        toState: State | null,
        detail: string | null,
        now: string
      ) =>
        sql`INSERT INTO form_definition_audit (form_id, seq, action, from_state, to_state, actor, detail, occurred_at)
          VALUES (${formId}, (SELECT coalesce(max(seq), 0) + 1 FROM form_definition_audit WHERE form_id = ${formId}), ${action}, ${fromState},
            ${toState}, ${actor}, ${detail}, ${now})`

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
          errors.map((e) => ({ field: `schema.${e.path}`, message: e.message, code: "INVALID_FORM" }))
        )

      const localeRows = (id: string) =>
        sql<
          { locale: string; labels: unknown; updated_at: unknown }
        >`SELECT locale, labels, updated_at FROM form_definition_locales WHERE form_id = ${id} ORDER BY locale`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            rows.map((r) => ({
              locale: r.locale,
              labels: fromJson<Record<string, string>>(r.labels),
              updatedAt: isoFromDb(r.updated_at)
            }))
          )
        )

      const create: FormDefinitionsShape["create"] = (principal, input, restoredFrom) =>
        Effect.gen(function*() {
          const { errors } = checkForm(input.schema)
          // A draft may be incomplete, but it must be a form at all.
          if (
            typeof input.schema !== "object" || input.schema === null || Array.isArray(input.schema)
          ) return yield* invalid(errors)
          const id = FormDefinitionId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO form_definitions (tenant_id, id, key, name, state, schema, version, restored_from, created_by, created_at, updated_at)
              VALUES (${principal.tenantId}, ${id}, ${
              input.key ?? keyOf(input.name, input.schema)
            }, ${input.name}, 'DRAFT', ${storedContent(input.schema)}::jsonb,
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
          return toDefinition(yield* Effect.orDie(row(principal.tenantId, id)))
        })

      const versionRow = (id: string, version: number) =>
        Effect.flatMap(
          sql<
            { version: number; name: string; schema: unknown; author: string; created_at: unknown }
          >`SELECT * FROM form_definition_versions
            WHERE form_id = ${id} AND version = ${version}`.pipe(Effect.orDie),
          (rows) => (rows[0] === undefined
            ? Effect.fail(notFound("form version", `${version} of form definition ${id}`))
            : Effect.succeed(rows[0]))
        )

      return {
        list: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
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
        get: (tenantId, id) => Effect.map(row(tenantId, id), toDefinition),
        update: (principal, id, input) =>
          Effect.gen(function*() {
            const current = yield* row(principal.tenantId, id)
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
            return toDefinition(yield* row(principal.tenantId, id))
          }),
        remove: (principal, id) =>
          Effect.gen(function*() {
            const current = yield* row(principal.tenantId, id)
            yield* draftOnly(current, "deleted")
            yield* sql`DELETE FROM form_definitions WHERE id = ${id}`.pipe(Effect.orDie)
            return toDefinition(current)
          }),
        transition: (principal, id, transition) =>
          Effect.gen(function*() {
            const current = yield* row(principal.tenantId, id)
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
                  WHERE tenant_id = ${principal.tenantId} AND key = ${current.key} AND state = 'DEPLOYED' AND id <> ${id} RETURNING id`
                for (const retired of previous) {
                  yield* record(retired.id, principal.sub, "RETIRED", "DEPLOYED", "RETIRED", `replaced by ${id}`, now)
                }
              }
              yield* sql`UPDATE form_definitions SET state = ${rule.to}, updated_at = ${now} WHERE id = ${id}`
              yield* record(id, principal.sub, transition.toUpperCase(), current.state, rule.to, null, now)
            })).pipe(Effect.orDie)
            return { definition: toDefinition(yield* row(principal.tenantId, id)), warnings: check.warnings }
          }),
        playground: (tenantId, id, data) =>
          Effect.map(row(tenantId, id), (current) => runForm(contentOf(current.schema), data)),
        versions: (tenantId, id) =>
          Effect.gen(function*() {
            yield* row(tenantId, id)
            const rows = yield* sql<
              { version: number; name: string; schema: unknown; author: string; created_at: unknown }
            >`SELECT * FROM form_definition_versions
              WHERE form_id = ${id} ORDER BY version DESC`.pipe(Effect.orDie)
            return rows.map((r) => ({
              version: Number(r.version),
              name: r.name,
              schema: contentOf(r.schema),
              author: r.author,
              createdAt: isoFromDb(r.created_at)
            }))
          }),
        diff: (tenantId, id, fromVersion, toVersion) =>
          Effect.gen(function*() {
            const current = yield* row(tenantId, id)
            const to = toVersion ?? Number(current.version)
            const from = fromVersion ?? Math.max(1, to - 1)
            const a = yield* versionRow(id, from)
            const b = yield* versionRow(id, to)
            return { from, to, ...diffForms(contentOf(a.schema), contentOf(b.schema)) }
          }),
        restore: (principal, id, version) =>
          Effect.gen(function*() {
            const current = yield* row(principal.tenantId, id)
            const old = yield* versionRow(id, version)
            const restored = yield* create(principal, {
              name: old.name,
              key: current.key,
              schema: contentOf(old.schema)
            }, { formId: id, version })
            const now = new Date(yield* nowMillis).toISOString()
            yield* record(
              id,
              principal.sub,
              "RESTORED_INTO",
              null,
              null,
              `version ${version} restored as ${restored.id}`,
              now
            ).pipe(Effect.orDie)
            return restored
          }),
        lineage: (tenantId, id) =>
          Effect.gen(function*() {
            let current = yield* row(tenantId, id)
            const restoredFrom: Array<{ formId: string; version: number }> = []
            for (let hops = 0; current.restored_from !== null && hops < 100; hops++) {
              const source = fromJson<{ formId: FormDefinitionId; version: number }>(current.restored_from)
              restoredFrom.push(source)
              const next = yield* Effect.option(row(tenantId, source.formId))
              if (next._tag === "None") break
              current = next.value
            }
            const into = yield* sql<
              { id: string; restored_from: unknown }
            >`SELECT id, restored_from FROM form_definitions
              WHERE tenant_id = ${tenantId} AND restored_from ->> 'formId' = ${id} ORDER BY created_at, id`.pipe(
              Effect.orDie
            )
            return {
              formId: id,
              restoredFrom,
              restoredInto: into.map((r) => ({
                formId: r.id,
                version: fromJson<{ version: number }>(r.restored_from).version
              }))
            }
          }),
        audit: (tenantId, id) =>
          Effect.gen(function*() {
            yield* row(tenantId, id)
            const rows = yield* sql<
              {
                seq: number
                action: string
                from_state: State | null
                to_state: State | null
                actor: string
                detail: string | null
                occurred_at: unknown
              }
            >`SELECT
                * FROM form_definition_audit WHERE form_id = ${id} ORDER BY seq`.pipe(Effect.orDie)
            return rows.map((r) => ({
              seq: Number(r.seq),
              action: r.action,
              fromState: r.from_state,
              toState: r.to_state,
              actor: r.actor,
              detail: r.detail,
              occurredAt: isoFromDb(r.occurred_at)
            }))
          }),
        locales: (tenantId, id) => Effect.flatMap(row(tenantId, id), () => localeRows(id)),
        saveLocale: (principal, id, locale, labels) =>
          Effect.gen(function*() {
            yield* row(principal.tenantId, id)
            if (!LOCALE.test(locale)) {
              return yield* businessError(`${locale} is not a locale tag like de or de-CH`, [{
                field: "locale",
                message: "not a locale tag",
                code: "INVALID_LOCALE"
              }])
            }
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`INSERT INTO form_definition_locales (form_id, locale, labels, updated_at) VALUES (${id}, ${locale}, ${
              toJson(labels)
            }::jsonb, ${now})
              ON CONFLICT (form_id, locale) DO UPDATE SET labels = ${toJson(labels)}::jsonb, updated_at = ${now}`.pipe(
              Effect.orDie
            )
            yield* record(id, principal.sub, "LOCALE_SAVED", null, null, locale, now).pipe(Effect.orDie)
            return { locale, labels: { ...labels }, updatedAt: now }
          }),
        removeLocale: (principal, id, locale) =>
          Effect.gen(function*() {
            yield* row(principal.tenantId, id)
            const existing = (yield* localeRows(id)).find((l) => l.locale === locale)
            if (existing === undefined) return yield* notFound("locale", `${locale} of form definition ${id}`)
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`DELETE FROM form_definition_locales WHERE form_id = ${id} AND locale = ${locale}`.pipe(
              Effect.orDie
            )
            yield* record(id, principal.sub, "LOCALE_REMOVED", null, null, locale, now).pipe(Effect.orDie)
            return existing
          }),
        resolved: (tenantId, id, locale) =>
          Effect.gen(function*() {
            const current = yield* row(tenantId, id)
            const translations = new Map((yield* localeRows(id)).map((l) => [l.locale, l.labels] as const))
            return resolveLabels(contentOf(current.schema), locale, translations)
          }),
        deployedByKey: (tenantId, key) =>
          Effect.map(
            sql<
              DefinitionRow
            >`SELECT * FROM form_definitions WHERE tenant_id = ${tenantId} AND key = ${key} AND state = 'DEPLOYED' LIMIT 1`
              .pipe(Effect.orDie),
            (rows) => (rows[0] === undefined ? undefined : toDefinition(rows[0]))
          )
      }
    })
  )
}

// A form definition's translations: labels per locale (a tag like de or de-CH), and the form resolved for a locale.
// Within the request's tenant (CurrentTenant); changes are recorded in the trail as the caller's (CurrentPrincipal).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { resolveLabels } from "../../forms/FormSchema.ts"
import { contentOf, fromJson, toJson } from "../../persistence/SqlValues.ts"
import { type BusinessError, businessError, type Conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { isoFromDb, nowMillis } from "../Time.ts"
import { makeDefinitionRows } from "./FormDefinitionRows.ts"

export interface LocaleLabels {
  readonly locale: string
  readonly labels: Record<string, string>
  readonly updatedAt: string
}

export interface FormDefinitionLocalesShape {
  readonly locales: (id: FormDefinitionId) => Effect.Effect<ReadonlyArray<LocaleLabels>, NotFound, CurrentTenant>
  readonly saveLocale: (
    id: FormDefinitionId,
    locale: string,
    labels: Readonly<Record<string, string>>
  ) => Effect.Effect<LocaleLabels, NotFound | Conflict | BusinessError, CurrentTenant | CurrentPrincipal>
  readonly removeLocale: (
    id: FormDefinitionId,
    locale: string
  ) => Effect.Effect<LocaleLabels, NotFound, CurrentTenant | CurrentPrincipal>
  readonly resolved: (
    id: FormDefinitionId,
    locale: string
  ) => Effect.Effect<ReturnType<typeof resolveLabels>, NotFound, CurrentTenant>
}

const LOCALE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/

export const makeFormDefinitionLocales = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { record, row } = yield* makeDefinitionRows

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

  const locales: FormDefinitionLocalesShape = {
    locales: (id) => Effect.flatMap(row(id), () => localeRows(id)),
    saveLocale: Effect.fnUntraced(function*(id, locale, labels) {
      const principal = yield* CurrentPrincipal
      yield* row(id)
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
    removeLocale: Effect.fnUntraced(function*(id, locale) {
      const principal = yield* CurrentPrincipal
      yield* row(id)
      const existing = (yield* localeRows(id)).find((l) => l.locale === locale)
      if (existing === undefined) return yield* notFound("locale", `${locale} of form definition ${id}`)
      const now = new Date(yield* nowMillis).toISOString()
      yield* sql`DELETE FROM form_definition_locales WHERE form_id = ${id} AND locale = ${locale}`.pipe(
        Effect.orDie
      )
      yield* record(id, principal.sub, "LOCALE_REMOVED", null, null, locale, now).pipe(Effect.orDie)
      return existing
    }),
    resolved: Effect.fnUntraced(function*(id, locale) {
      const current = yield* row(id)
      const translations = new Map((yield* localeRows(id)).map((l) => [l.locale, l.labels] as const))
      return resolveLabels(contentOf(current.schema), locale, translations)
    })
  }
  return locales
})

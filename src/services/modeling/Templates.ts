// Process templates: a named starting point for new processes, shared in the tenant. Their content (BPMN XML or a
// JSON graph) is compiled on every save exactly as a deployment would be, so a template is always deployable. The
// tenant is the request's (CurrentTenant), never an argument.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { contentOf, storedContent } from "../../persistence/SqlValues.ts"
import { type NotFound, notFound, type ValidationError } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Template } from "../../schema/Modeling.ts"
import { TemplateId } from "../../schema/ResourceIds.ts"
import { ProcessModels } from "../deployments/ProcessModels.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowMillis } from "../Time.ts"

interface TemplateRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly content: unknown
  readonly process_key: string
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}

const toTemplate = (row: TemplateRow): Template => ({
  id: row.id,
  name: row.name,
  description: row.description,
  processKey: row.process_key,
  content: contentOf(row.content),
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

type Input = { readonly name: string; readonly description?: string | undefined; readonly content: unknown }

export interface TemplatesShape {
  readonly list: (page: PageRequest) => Effect.Effect<PageOf<Template>, never, CurrentTenant>
  /** Created by the request's caller (CurrentPrincipal). */
  readonly create: (input: Input) => Effect.Effect<Template, ValidationError, CurrentTenant | CurrentPrincipal>
  readonly get: (id: TemplateId) => Effect.Effect<Template, NotFound, CurrentTenant>
  readonly update: (id: TemplateId, input: Input) => Effect.Effect<Template, NotFound | ValidationError, CurrentTenant>
  readonly remove: (id: TemplateId) => Effect.Effect<Template, NotFound, CurrentTenant>
}

export class Templates extends Context.Service<Templates, TemplatesShape>()("flowcore/Templates") {
  static readonly layer = Layer.effect(
    Templates,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const models = yield* ProcessModels

      const row = Effect.fnUntraced(function*(id: TemplateId) {
        const tenantId = yield* CurrentTenant
        const [found] = yield* sql<TemplateRow>`SELECT * FROM templates WHERE tenant_id = ${tenantId} AND id = ${id}`
          .pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("template", id)
        return found
      })

      const compiledKey = (content: unknown) =>
        Effect.map(
          typeof content === "string" ? models.fromXml(content) : models.fromJson(content),
          (model) => model.key
        )

      return {
        list: Effect.fnUntraced(function*(page) {
          const tenantId = yield* CurrentTenant
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM templates`,
            countFrom: sql`templates`,
            where: sql`tenant_id = ${tenantId}`,
            orderBy: sql`lower(name), id`,
            page,
            toItem: toTemplate
          }).pipe(Effect.orDie)
        }),
        create: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const author = (yield* CurrentPrincipal).sub
          const key = yield* compiledKey(input.content)
          const id = TemplateId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO templates (tenant_id, id, name, description, content, process_key, created_by, created_at, updated_at)
              VALUES (${tenantId}, ${id}, ${input.name}, ${input.description ?? null}, ${
            storedContent(input.content)
          }::jsonb, ${key},
                ${author}, ${now}, ${now})`.pipe(Effect.orDie)
          return toTemplate(yield* Effect.orDie(row(id)))
        }),
        get: (id) => Effect.map(row(id), toTemplate),
        update: Effect.fnUntraced(function*(id, input) {
          const tenantId = yield* CurrentTenant
          yield* row(id)
          const key = yield* compiledKey(input.content)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`UPDATE templates SET name = ${input.name}, description = ${input.description ?? null}, content = ${
            storedContent(input.content)
          }::jsonb,
                process_key = ${key}, updated_at = ${now} WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          return toTemplate(yield* row(id))
        }),
        remove: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const current = yield* row(id)
          yield* sql`DELETE FROM templates WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          return toTemplate(current)
        })
      }
    })
  )
}

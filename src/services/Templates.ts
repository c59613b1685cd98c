// Process templates: a named starting point for new processes, shared in the tenant. Their content (BPMN XML or a
// JSON graph) is compiled on every save exactly as a deployment would be, so a template is always deployable.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { pagedQuery } from "../persistence/PagedQuery.ts"
import { contentOf, storedContent } from "../persistence/SqlValues.ts"
import { type NotFound, notFound, type ValidationError } from "../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../schema/Common.ts"
import type { Template } from "../schema/Modeling.ts"
import { TemplateId } from "../schema/ResourceIds.ts"
import { newId } from "./Ids.ts"
import { ProcessModels } from "./ProcessModels.ts"
import { isoFromDb, nowMillis } from "./Time.ts"

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
  readonly list: (tenantId: string, page: PageRequest) => Effect.Effect<PageOf<Template>>
  readonly create: (principal: Principal, input: Input) => Effect.Effect<Template, ValidationError>
  readonly get: (tenantId: string, id: TemplateId) => Effect.Effect<Template, NotFound>
  readonly update: (
    principal: Principal,
    id: TemplateId,
    input: Input
  ) => Effect.Effect<Template, NotFound | ValidationError>
  readonly remove: (tenantId: string, id: TemplateId) => Effect.Effect<Template, NotFound>
}

export class Templates extends Context.Service<Templates, TemplatesShape>()("flowcore/Templates") {
  static readonly layer = Layer.effect(
    Templates,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const models = yield* ProcessModels

      const row = (tenantId: string, id: TemplateId) =>
        Effect.gen(function*() {
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
        list: (tenantId, page) =>
          Effect.gen(function*() {
            return yield* pagedQuery(sql, {
              select: sql`SELECT * FROM templates`,
              countFrom: sql`templates`,
              where: sql`tenant_id = ${tenantId}`,
              orderBy: sql`lower(name), id`,
              page,
              toItem: toTemplate
            }).pipe(Effect.orDie)
          }),
        create: (principal, input) =>
          Effect.gen(function*() {
            const key = yield* compiledKey(input.content)
            const id = TemplateId.make(yield* newId)
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`INSERT INTO templates (tenant_id, id, name, description, content, process_key, created_by, created_at, updated_at)
              VALUES (${principal.tenantId}, ${id}, ${input.name}, ${input.description ?? null}, ${
              storedContent(input.content)
            }::jsonb, ${key},
                ${principal.sub}, ${now}, ${now})`.pipe(Effect.orDie)
            return toTemplate(yield* Effect.orDie(row(principal.tenantId, id)))
          }),
        get: (tenantId, id) => Effect.map(row(tenantId, id), toTemplate),
        update: (principal, id, input) =>
          Effect.gen(function*() {
            yield* row(principal.tenantId, id)
            const key = yield* compiledKey(input.content)
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`UPDATE templates SET name = ${input.name}, description = ${
              input.description ?? null
            }, content = ${storedContent(input.content)}::jsonb,
                process_key = ${key}, updated_at = ${now} WHERE tenant_id = ${principal.tenantId} AND id = ${id}`.pipe(
              Effect.orDie
            )
            return toTemplate(yield* row(principal.tenantId, id))
          }),
        remove: (tenantId, id) =>
          Effect.gen(function*() {
            const current = yield* row(tenantId, id)
            yield* sql`DELETE FROM templates WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
            return toTemplate(current)
          })
      }
    })
  )
}

// Drafts: each user's own work in progress (a process, a decision or a form); nobody else sees them. Promoting a
// draft saves it through the same services as POST /deployments, POST /decisions (or /decisions/import) and
// POST /form-definitions, so an invalid draft answers with the same listed problems. A FORM draft becomes a version of
// the form definition of its key (FormDefinitions.saveByKey: the form's id, else the draft's name), as a PROCESS draft
// becomes a version of the deployment of its process id. A promotion is one transaction with the draft's row locked:
// promoting a draft twice, even at the same time, creates one resource and answers the other 409.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { contentOf, fromJson, storedContent, toJson } from "../../persistence/SqlValues.ts"
import { type ClientError, conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { Draft } from "../../schema/Modeling.ts"
import { DraftId } from "../../schema/ResourceIds.ts"
import { Decisions } from "../decisions/Decisions.ts"
import { Deployments } from "../deployments/Deployments.ts"
import { FormDefinitions } from "../forms/FormDefinitions.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowMillis } from "../Time.ts"

interface DraftRow {
  readonly id: string
  readonly owner: string
  readonly kind: Draft["kind"]
  readonly name: string
  readonly content: unknown
  readonly promoted_to: unknown
  readonly created_at: unknown
  readonly updated_at: unknown
}

const toDraft = (row: DraftRow): Draft => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  owner: row.owner,
  content: contentOf(row.content),
  promotedTo: row.promoted_to === null ? null : fromJson(row.promoted_to),
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

type Caller = CurrentTenant | CurrentPrincipal

/** The caller's own drafts: the request's tenant (CurrentTenant) and caller (CurrentPrincipal). */
export interface DraftsShape {
  readonly list: (kind: Draft["kind"] | undefined) => Effect.Effect<ReadonlyArray<Draft>, never, Caller>
  readonly create: (
    input: { readonly kind: Draft["kind"]; readonly name: string; readonly content: unknown }
  ) => Effect.Effect<Draft, never, Caller>
  readonly get: (id: DraftId) => Effect.Effect<Draft, NotFound, Caller>
  readonly save: (
    id: DraftId,
    input: { readonly name?: string | undefined; readonly content?: unknown }
  ) => Effect.Effect<Draft, NotFound, Caller>
  readonly remove: (id: DraftId) => Effect.Effect<Draft, NotFound, Caller>
  readonly promote: (id: DraftId) => Effect.Effect<Draft, ClientError, Caller>
}

export class Drafts extends Context.Service<Drafts, DraftsShape>()("flowcore/Drafts") {
  static readonly layer = Layer.effect(
    Drafts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const deployments = yield* Deployments
      const decisions = yield* Decisions
      const forms = yield* FormDefinitions

      // Another user's draft answers like a missing one.
      /** The tenant and the user whose drafts these are. */
      const caller = Effect.gen(function*() {
        return { tenantId: yield* CurrentTenant, sub: (yield* CurrentPrincipal).sub }
      })

      const row = Effect.fnUntraced(function*(id: DraftId) {
        const owner = yield* caller
        const [found] = yield* sql<
          DraftRow
        >`SELECT * FROM drafts WHERE tenant_id = ${owner.tenantId} AND id = ${id} AND owner = ${owner.sub}`
          .pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("draft", id)
        return found
      })

      /** Deploys the draft's content; the deployed resource's kind, id, key and version. */
      const deploy = Effect.fnUntraced(function*(draft: DraftRow) {
        const content = contentOf(draft.content)
        switch (draft.kind) {
          case "PROCESS": {
            const deployment = yield* deployments.deploy(
              typeof content === "string"
                ? { format: "BPMN_XML", xml: content }
                : { format: "JSON_GRAPH", graph: content }
            )
            return { kind: "deployment", id: deployment.id, key: deployment.key, version: deployment.version }
          }
          case "DECISION": {
            if (typeof content === "string") {
              const model = yield* decisions.importXml(content)
              const first = model.decisions[0]
              return {
                kind: "decisionModel",
                id: model.id,
                key: first?.key ?? model.id,
                version: first?.version ?? 1
              }
            }
            const decision = yield* decisions.deployTable(content)
            return { kind: "decision", id: decision.id, key: decision.key, version: decision.version }
          }
          case "FORM": {
            const definition = yield* forms.saveByKey({ name: draft.name, schema: content })
            return {
              kind: "formDefinition",
              id: definition.id,
              key: definition.key,
              version: definition.version
            }
          }
        }
      })

      return {
        list: (kind) =>
          Effect.flatMap(caller, (owner) =>
            Effect.map(
              sql<DraftRow>`SELECT * FROM drafts WHERE tenant_id = ${owner.tenantId} AND owner = ${owner.sub}
              ${kind === undefined ? sql`` : sql`AND kind = ${kind}`} ORDER BY updated_at DESC, id`.pipe(Effect.orDie),
              (rows) => rows.map(toDraft)
            )),
        create: Effect.fnUntraced(function*(input) {
          const owner = yield* caller
          const id = DraftId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO drafts (tenant_id, id, owner, kind, name, content, promoted_to, created_at, updated_at)
              VALUES (${owner.tenantId}, ${id}, ${owner.sub}, ${input.kind}, ${input.name}, ${
            storedContent(input.content ?? null)
          }::jsonb, NULL, ${now}, ${now})`.pipe(Effect.orDie)
          return toDraft(yield* Effect.orDie(row(id)))
        }),
        get: (id) => Effect.map(row(id), toDraft),
        save: Effect.fnUntraced(function*(id, input) {
          const current = yield* row(id)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`UPDATE drafts SET name = ${input.name ?? current.name},
                content = ${
            input.content === undefined ? storedContent(contentOf(current.content)) : storedContent(input.content)
          }::jsonb,
                promoted_to = NULL, updated_at = ${now}
              WHERE id = ${id}`.pipe(Effect.orDie)
          return toDraft(yield* row(id))
        }),
        remove: Effect.fnUntraced(function*(id) {
          const current = yield* row(id)
          yield* sql`DELETE FROM drafts WHERE id = ${id}`.pipe(Effect.orDie)
          return toDraft(current)
        }),
        promote: Effect.fnUntraced(function*(id) {
          const owner = yield* caller
          return yield* sql.withTransaction(Effect.gen(function*() {
            // Locked until the promotion commits: a concurrent promote of this draft waits, then finds it promoted.
            const [current] = yield* sql<DraftRow>`SELECT * FROM drafts
                WHERE tenant_id = ${owner.tenantId} AND id = ${id} AND owner = ${owner.sub} FOR UPDATE`
            if (current === undefined) return yield* notFound("draft", id)
            if (current.promoted_to !== null) {
              const done = fromJson<{ kind: string; id: string }>(current.promoted_to)
              return yield* conflict(
                `draft ${id} was already promoted (${done.kind} ${done.id}); save it again to promote a new version`
              )
            }
            const promoted = yield* deploy(current)
            const now = new Date(yield* nowMillis).toISOString()
            const [updated] = yield* sql<DraftRow>`UPDATE drafts SET promoted_to = ${
              toJson(promoted)
            }::jsonb, updated_at = ${now}
                WHERE id = ${id} RETURNING *`
            return toDraft(updated!)
          })).pipe(Effect.catchTag("SqlError", Effect.die))
        })
      }
    })
  )
}

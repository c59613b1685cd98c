// Models inside projects: every content save is a new revision (restoring an old one is a save too), and an editing
// lock keeps two people from overwriting each other: while someone holds an unexpired lock, only they save. A lock
// lasts LOCK_MILLIS unless renewed; a project OWNER (or the tenant's ADMIN) may take over someone else's lock.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal, type Principal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import { type BusinessError, type Conflict, conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Model, ModelRevision } from "../../schema/Modeling.ts"
import { ModelId, parseId, ProjectId } from "../../schema/ResourceIds.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, isoOrNull, nowMillis } from "../Time.ts"
import { Projects } from "./Projects.ts"

export const LOCK_MILLIS = 5 * 60_000

interface ModelRow {
  readonly id: ModelId
  readonly project_id: ProjectId
  readonly folder_id: string | null
  readonly name: string
  readonly kind: Model["kind"]
  readonly revision: number
  readonly content: string
  readonly lock_holder: string | null
  readonly lock_expires_at: unknown
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}

interface RevisionRow {
  readonly revision: number
  readonly author: string
  readonly note: string | null
  readonly content: string
  readonly created_at: unknown
}

const toRevision = (row: RevisionRow): typeof ModelRevision.Type => ({
  revision: Number(row.revision),
  author: row.author,
  note: row.note,
  content: row.content,
  createdAt: isoFromDb(row.created_at)
})

type Failure = NotFound | Conflict | BusinessError
type LockView = {
  readonly modelId: string
  readonly lock: { readonly holder: string; readonly expiresAt: string } | null
}

/** The models of the request's tenant (CurrentTenant); changes need the caller's (CurrentPrincipal) project role. */
export interface ModelsShape {
  readonly list: (
    filter: {
      readonly projectId?: string | undefined
      readonly folderId?: string | undefined
      readonly kind?: Model["kind"] | undefined
    },
    page: PageRequest
  ) => Effect.Effect<PageOf<Model>, never, CurrentTenant>
  readonly create: (
    input: {
      readonly projectId: string
      readonly folderId?: string | undefined
      readonly name: string
      readonly kind: Model["kind"]
      readonly content?: string | undefined
    }
  ) => Effect.Effect<Model, Failure, CurrentTenant | CurrentPrincipal>
  readonly get: (id: ModelId) => Effect.Effect<Model, NotFound, CurrentTenant>
  readonly remove: (id: ModelId) => Effect.Effect<Model, Failure, CurrentTenant | CurrentPrincipal>
  readonly save: (
    id: ModelId,
    input: { readonly content: string; readonly baseRevision?: number | undefined; readonly note?: string | undefined }
  ) => Effect.Effect<Model, Failure, CurrentTenant | CurrentPrincipal>
  readonly revisions: (id: ModelId) => Effect.Effect<ReadonlyArray<typeof ModelRevision.Type>, NotFound, CurrentTenant>
  readonly restore: (id: ModelId, revision: number) => Effect.Effect<Model, Failure, CurrentTenant | CurrentPrincipal>
  readonly lock: (id: ModelId) => Effect.Effect<LockView, NotFound, CurrentTenant>
  readonly acquire: (id: ModelId) => Effect.Effect<LockView, Failure, CurrentTenant | CurrentPrincipal>
  readonly release: (id: ModelId) => Effect.Effect<LockView, Failure, CurrentTenant | CurrentPrincipal>
  readonly renew: (id: ModelId) => Effect.Effect<LockView, Failure, CurrentTenant | CurrentPrincipal>
  readonly takeover: (id: ModelId) => Effect.Effect<LockView, Failure, CurrentTenant | CurrentPrincipal>
}

export class Models extends Context.Service<Models, ModelsShape>()("flowcore/Models") {
  static readonly layer = Layer.effect(
    Models,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const projects = yield* Projects
      const projectIdOf = parseId(ProjectId)

      const row = Effect.fnUntraced(function*(id: ModelId) {
        const tenantId = yield* CurrentTenant
        const [found] = yield* sql<ModelRow>`SELECT * FROM models WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
          Effect.orDie
        )
        if (found === undefined) return yield* notFound("model", id)
        return found
      })

      /** The lock as it stands now: an expired lock is no lock. */
      const lockOf = (model: ModelRow, now: number) => {
        const expires = isoOrNull(model.lock_expires_at)
        return model.lock_holder !== null && expires !== null && Date.parse(expires) > now
          ? { holder: model.lock_holder, expiresAt: expires }
          : null
      }

      const view = (model: ModelRow) =>
        Effect.map(nowMillis, (now): Model => ({
          id: model.id,
          projectId: model.project_id,
          folderId: model.folder_id,
          name: model.name,
          kind: model.kind,
          revision: Number(model.revision),
          content: model.content,
          lock: lockOf(model, now),
          createdBy: model.created_by,
          createdAt: isoFromDb(model.created_at),
          updatedAt: isoFromDb(model.updated_at)
        }))

      const editable = Effect.fnUntraced(function*(id: ModelId) {
        const model = yield* row(id)
        yield* projects.requireRole(model.project_id, ["OWNER", "EDITOR"])
        return model
      })

      const heldByOther = (model: ModelRow, principal: Principal, now: number) => {
        const lock = lockOf(model, now)
        return lock !== null && lock.holder !== principal.sub ? lock : null
      }

      /** 409: someone else holds the model's lock (save and acquire name it as the field: the editor shows it there). */
      const lockedBy = (id: ModelId, other: { readonly holder: string; readonly expiresAt: string }, nameIt: boolean) =>
        conflict(
          `model ${id} is locked by ${other.holder} until ${other.expiresAt}`,
          nameIt ? [{ field: "lock", message: `held by ${other.holder}`, code: "LOCKED" }] : []
        )

      /** The caller and the model they change: one they may edit, and whose lock nobody else holds. */
      const unlocked = Effect.fnUntraced(function*(id: ModelId, nameTheLock: boolean) {
        const principal = yield* CurrentPrincipal
        const model = yield* editable(id)
        const other = heldByOther(model, principal, yield* nowMillis)
        if (other !== null) return yield* lockedBy(id, other, nameTheLock)
        return { model, principal }
      })

      const writeRevision = Effect.fnUntraced(
        function*(principal: Principal, model: ModelRow, content: string, note: string | null) {
          const now = new Date(yield* nowMillis).toISOString()
          const revision = Number(model.revision) + 1
          const updated = yield* sql.withTransaction(Effect.gen(function*() {
            const rows = yield* sql`UPDATE models SET content = ${content}, revision = ${revision}, updated_at = ${now}
              WHERE id = ${model.id} AND revision = ${model.revision} RETURNING id`
            if (rows.length === 0) return false
            yield* sql`INSERT INTO model_revisions (model_id, revision, content, author, note, created_at)
              VALUES (${model.id}, ${revision}, ${content}, ${principal.sub}, ${note}, ${now})`
            return true
          })).pipe(Effect.orDie)
          if (!updated) {
            return yield* conflict(
              `model ${model.id} was saved meanwhile; load revision ${Number(model.revision) + 1} or later first`
            )
          }
          return yield* view(yield* row(model.id))
        }
      )

      const setLock = (model: ModelRow, holder: string | null, now: number): Effect.Effect<LockView> =>
        Effect.map(
          sql`UPDATE models SET lock_holder = ${holder}, lock_expires_at = ${
            holder === null ? null : new Date(now + LOCK_MILLIS).toISOString()
          }
            WHERE id = ${model.id}`.pipe(Effect.orDie),
          () => ({
            modelId: model.id,
            lock: holder === null ? null : { holder, expiresAt: new Date(now + LOCK_MILLIS).toISOString() }
          })
        )

      /** Every lock change: the editable model and the time, the caller's claim decided (the new holder, or none), set. */
      const changeLock = <E, R>(
        id: ModelId,
        decide: (model: ModelRow, principal: Principal, now: number) => Effect.Effect<string | null, E, R>
      ) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const model = yield* editable(id)
          const now = yield* nowMillis
          return yield* setLock(model, yield* decide(model, principal, now), now)
        })

      return {
        list: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.projectId === undefined
              ? []
              : [isUuid(filter.projectId) ? sql`project_id = ${filter.projectId}` : sql`false`]),
            ...(filter.folderId === undefined
              ? []
              : [isUuid(filter.folderId) ? sql`folder_id = ${filter.folderId}` : sql`false`]),
            ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`])
          ])
          const rows = yield* pagedQuery(sql, {
            select: sql`SELECT * FROM models`,
            countFrom: sql`models`,
            where,
            orderBy: sql`lower(name), id`,
            page,
            toItem: (row: ModelRow) => row
          }).pipe(Effect.orDie)
          return { ...rows, items: yield* Effect.forEach(rows.items, view) }
        }),
        create: Effect.fnUntraced(function*(input) {
          const principal = yield* CurrentPrincipal
          const tenantId = yield* CurrentTenant
          // The project is named in the body: one that is not a UUID names no project.
          yield* projects.requireRole(yield* projectIdOf(input.projectId), ["OWNER", "EDITOR"])
          if (input.folderId !== undefined) {
            yield* projects.folderOf(input.projectId, input.folderId)
          }
          const id = ModelId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          const content = input.content ?? ""
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO models (tenant_id, id, project_id, folder_id, name, kind, revision, content, lock_holder, lock_expires_at,
                  created_by, created_at, updated_at)
                VALUES (${tenantId}, ${id}, ${input.projectId}, ${
              input.folderId ?? null
            }, ${input.name}, ${input.kind}, 1, ${content},
                  NULL, NULL, ${principal.sub}, ${now}, ${now})`
            yield* sql`INSERT INTO model_revisions (model_id, revision, content, author, note, created_at)
                VALUES (${id}, 1, ${content}, ${principal.sub}, 'created', ${now})`
          })).pipe(Effect.orDie)
          return yield* view(yield* row(id))
        }),
        get: (id) => Effect.flatMap(row(id), view),
        remove: Effect.fnUntraced(function*(id) {
          const { model } = yield* unlocked(id, false)
          const shown = yield* view(model)
          yield* sql`DELETE FROM models WHERE id = ${id}`.pipe(Effect.orDie)
          return shown
        }),
        save: Effect.fnUntraced(function*(id, input) {
          const { model, principal } = yield* unlocked(id, true)
          if (input.baseRevision !== undefined && input.baseRevision !== Number(model.revision)) {
            return yield* conflict(
              `model ${id} is at revision ${model.revision}, the edit started from ${input.baseRevision}`,
              [
                { field: "baseRevision", message: `current revision is ${model.revision}`, code: "STALE" }
              ]
            )
          }
          return yield* writeRevision(principal, model, input.content, input.note ?? null)
        }),
        revisions: Effect.fnUntraced(function*(id) {
          yield* row(id)
          const rows = yield* sql<RevisionRow>`SELECT revision, author, note, content, created_at
              FROM model_revisions WHERE model_id = ${id} ORDER BY revision DESC`.pipe(Effect.orDie)
          return rows.map(toRevision)
        }),
        restore: Effect.fnUntraced(function*(id, revision) {
          const { model, principal } = yield* unlocked(id, false)
          const [old] = yield* sql<
            { content: string }
          >`SELECT content FROM model_revisions WHERE model_id = ${id} AND revision = ${revision}`.pipe(Effect.orDie)
          if (old === undefined) return yield* notFound("model revision", `${revision} of model ${id}`)
          return yield* writeRevision(principal, model, old.content, `restored revision ${revision}`)
        }),
        lock: Effect.fnUntraced(function*(id) {
          const model = yield* row(id)
          return { modelId: id, lock: lockOf(model, yield* nowMillis) }
        }),
        acquire: (id) =>
          changeLock(id, (model, principal, now) => {
            const other = heldByOther(model, principal, now)
            return other === null ? Effect.succeed(principal.sub) : lockedBy(id, other, true)
          }),
        release: (id) =>
          changeLock(id, (model, principal, now) => {
            const other = heldByOther(model, principal, now)
            return other !== null && !principal.roles.includes("ADMIN")
              ? conflict(`model ${id} is locked by ${other.holder}; only they (or an ADMIN) release it`)
              : Effect.succeed(null)
          }),
        renew: (id) =>
          changeLock(id, (model, principal, now) => {
            const current = lockOf(model, now)
            // A lapsed lock may be renewed by its last holder as long as nobody else took it.
            return model.lock_holder !== principal.sub || (current !== null && current.holder !== principal.sub)
              ? conflict(
                `you do not hold the lock of model ${id}${current === null ? "" : ` (held by ${current.holder})`}`
              )
              : Effect.succeed(principal.sub)
          }),
        takeover: (id) =>
          changeLock(id, (model, principal, now) =>
            heldByOther(model, principal, now) === null
              ? Effect.succeed(principal.sub)
              : Effect.as(projects.requireRole(model.project_id, ["OWNER"]), principal.sub))
      }
    })
  )
}
